import Link from "next/link";
import { siteConfig } from "@/config/site";

/** The shared footer (docs/product.md §2). */
export function SiteFooter({ contactEmail }: { contactEmail: string }) {
  return (
    <footer className="border-t border-ink-100 bg-ink-50">
      <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-ink-600 sm:flex-row sm:px-6">
        <p>
          © {siteConfig.name}
        </p>
        {/* No prefetch: the legal pages would be fetched and processed on every page's load. */}
        <nav aria-label="Footer" className="flex items-center gap-5">
          <Link href={siteConfig.routes.terms} prefetch={false} className="hover:text-ink-950 hover:underline">
            Terms of Service
          </Link>
          <Link href={siteConfig.routes.privacy} prefetch={false} className="hover:text-ink-950 hover:underline">
            Privacy
          </Link>
          <a href={`mailto:${contactEmail}`} className="hover:text-ink-950 hover:underline">
            Contact
          </a>
        </nav>
      </div>
    </footer>
  );
}
