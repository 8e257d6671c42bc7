"use client";

import Link from "next/link";
import { AccountDeletedScreen } from "@/components/account/account-deleted-screen";
import { useAccount } from "@/lib/account/client";
import { MobileMenu } from "./mobile-menu";
import { headerLinks, type HeaderLink } from "./nav-links";

/**
 * The header's account-aware part (spec §2): desktop links, the mobile menu toggle, and the Account
 * Deleted screen, which covers the whole app when the account is flagged deleted.
 */
export function HeaderNav() {
  const account = useAccount();
  const links = headerLinks(account);
  return (
    <>
      <nav aria-label="Main" className="hidden items-center gap-2 sm:flex">
        {links.map((l) => (
          <HeaderItem key={l.href} link={l} />
        ))}
      </nav>
      <MobileMenu links={links} />
      {account.accountDeleted && <AccountDeletedScreen />}
    </>
  );
}

function HeaderItem({ link }: { link: HeaderLink }) {
  if (link.kind === "settings") {
    return (
      <Link href={link.href} aria-label="Settings" title="Settings" className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-ink-700 hover:bg-ink-100 hover:text-ink-950">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <circle cx="12" cy="12" r="3" />
          <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
        </svg>
      </Link>
    );
  }
  return (
    <Link
      href={link.href}
      className={
        link.kind === "primary"
          ? "rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          : "rounded-lg px-3 py-2 text-sm font-medium text-ink-700 hover:bg-ink-100 hover:text-ink-950"
      }
    >
      {link.label}
    </Link>
  );
}
