import Link from "next/link";
import { GearIcon } from "./gear-icon";
import { Logo } from "./logo";
import { MobileMenu } from "./mobile-menu";
import { type HeaderAccount, headerLinksFor } from "./nav-links";

const linkClass = {
  plain: "rounded-lg px-3 py-2 text-sm font-medium text-ink-700 transition-colors hover:bg-ink-100 hover:text-ink-950",
  primary: "ml-1 rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition-colors hover:bg-brand-700",
  settings: "inline-flex h-9 w-9 items-center justify-center rounded-lg text-ink-700 transition-colors hover:bg-ink-100 hover:text-ink-950",
} as const;

/**
 * Shared header of spec §2: logo, Pricing, Chat and Sign Up (or the settings button when signed in),
 * with a mobile menu toggle on small screens. `account` null (the default) renders the visitor's header.
 */
export function SiteHeader({ account = null }: { account?: HeaderAccount | null }) {
  const links = headerLinksFor(account);
  return (
    <header className="sticky top-0 z-30 border-b border-ink-100 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 sm:flex">
          {links.map((l) => (
            <Link key={l.href} href={l.href} className={linkClass[l.kind]} aria-label={l.kind === "settings" ? l.label : undefined}>
              {l.kind === "settings" ? <GearIcon className="h-5 w-5" /> : l.label}
            </Link>
          ))}
        </nav>
        <MobileMenu links={links} />
      </div>
    </header>
  );
}
