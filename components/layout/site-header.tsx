import { HeaderNav } from "./header-nav";
import { Logo } from "./logo";

/** Shared header of spec §2: logo, then Pricing, Chat and Sign Up or settings, with a mobile menu toggle. */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-ink-100 bg-white/90 backdrop-blur">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <HeaderNav />
      </div>
    </header>
  );
}
