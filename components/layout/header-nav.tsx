"use client";

import Link from "next/link";
import { useAuthTokenSync } from "@/lib/browser/account/sync";
import { useAccount } from "@/lib/browser/account/client";
import { GearIcon } from "./gear-icon";
import { MobileMenu } from "./mobile-menu";
import { headerLinksFor } from "./nav-links";

const linkClass = {
  plain: "rounded-lg px-3 py-2 text-sm font-medium text-ink-700 transition-colors hover:bg-ink-100 hover:text-ink-950",
  primary: "ml-1 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700",
  settings: "inline-flex h-9 w-9 items-center justify-center rounded-lg text-ink-700 transition-colors hover:bg-ink-100 hover:text-ink-950",
} as const;

/** The header's account-aware part (docs/product.md §2); the visitor's links until the account is known. */
export function HeaderNav({ deletedScreen }: { deletedScreen: React.ReactNode }) {
  const account = useAccount();
  useAuthTokenSync();
  const links = headerLinksFor(account.user ? { plan: account.subscription?.plan ?? null } : null);
  return (
    <>
      <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
        {links.map((l) => (
          <Link key={l.href} href={l.href} className={linkClass[l.kind]} aria-label={l.kind === "settings" ? l.label : undefined}>
            {l.kind === "settings" ? <GearIcon className="h-5 w-5" /> : l.label}
          </Link>
        ))}
      </nav>
      <MobileMenu links={links} />
      {account.accountDeleted && deletedScreen}
    </>
  );
}
