"use client";

import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";

const OPTIONS = [
  { value: "light", label: "Light theme", icon: <path d="M12 4V2m0 20v-2m8-8h2M2 12h2m13.66-5.66 1.41-1.41M4.93 19.07l1.41-1.41m0-11.32L4.93 4.93m14.14 14.14-1.41-1.41M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z" /> },
  { value: "dark", label: "Dark theme", icon: <path d="M20 14.5A8 8 0 0 1 9.5 4 8 8 0 1 0 20 14.5Z" /> },
  { value: "system", label: "System theme", icon: <path d="M4 5h16v11H4zM8 20h8M12 16v4" /> },
] as const;

const noop = () => () => {};

/** The header's light / dark / system switch; none is pressed until mounted (the server renders for everyone). */
export function ThemeSwitch({ className = "" }: { className?: string }) {
  const { theme, setTheme } = useTheme();
  const mounted = useSyncExternalStore(noop, () => true, () => false);
  const current = mounted ? (theme ?? "system") : null;
  return (
    <div role="group" aria-label="Colour theme" className={`inline-flex items-center rounded-lg border border-ink-200 p-0.5 ${className}`}>
      {OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={current === o.value}
          aria-label={o.label}
          title={o.label}
          onClick={() => setTheme(o.value)}
          data-theme-option={o.value}
          className={`inline-flex h-7 w-7 items-center justify-center rounded-md transition-colors ${
            current === o.value ? "bg-ink-100 text-ink-950" : "text-ink-600 hover:bg-ink-50 hover:text-ink-900"
          }`}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            {o.icon}
          </svg>
        </button>
      ))}
    </div>
  );
}
