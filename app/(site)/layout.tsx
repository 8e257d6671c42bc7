import { SiteFooter } from "@/components/layout/site-footer";
import { SiteHeader } from "@/components/layout/site-header";
import { getConfig } from "@/lib/server/config";
import { AccountDeleted } from "./account-deleted";

/** The shared layout of docs/product.md §2 (header and footer); /appsignup stands outside it. */
export default function SiteLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <div className="site-shell flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <SiteHeader deletedScreen={<AccountDeleted />} />
      <main id="main" className="flex flex-1 flex-col">
        {children}
      </main>
      <SiteFooter contactEmail={getConfig().CONTACT_EMAIL} />
    </div>
  );
}
