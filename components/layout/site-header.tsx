import { HeaderNav } from "./header-nav";
import { Logo } from "./logo";
import { ThemeSwitch } from "@/components/theme/theme-switch";

/** The shared header (docs/product.md §2); the account-aware links live in the HeaderNav island. */
export function SiteHeader({ deletedScreen }: { deletedScreen: React.ReactNode }) {
  return (
    <header className="sticky top-0 z-30 border-b border-ink-100 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <div className="flex items-center gap-2 sm:gap-3">
          <HeaderNav deletedScreen={deletedScreen} />
          <ThemeSwitch />
        </div>
      </div>
    </header>
  );
}
