"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { GearIcon } from "./gear-icon";
import type { HeaderLink } from "./nav-links";

/** The small-screen menu toggle (docs/product.md §2); Escape closes it and returns focus to the toggle. */
export function MobileMenu({ links }: { links: readonly HeaderLink[] }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="sm:hidden">
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={open ? "Close menu" : "Open menu"}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-ink-700 transition-colors hover:bg-ink-100"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
        </svg>
      </button>
      <nav id={panelId} aria-label="Mobile" hidden={!open} className="absolute inset-x-0 top-16 z-40 border-b border-ink-200 bg-white px-4 pb-4 pt-2 shadow-lg">
        <ul className="flex flex-col gap-1">
          {links.map((l) => (
            <li key={l.href}>
              <Link
                href={l.href}
                onClick={() => setOpen(false)}
                className={
                  l.kind === "primary"
                    ? "mt-2 block rounded-lg bg-brand-600 px-3 py-2.5 text-center text-base font-semibold text-white hover:bg-brand-700"
                    : "flex items-center gap-2 rounded-lg px-3 py-2.5 text-base font-medium text-ink-800 hover:bg-ink-100"
                }
              >
                {l.kind === "settings" && <GearIcon className="h-5 w-5" />}
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
