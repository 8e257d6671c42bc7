import Link from "next/link";
import { siteConfig } from "@/config/site";

/** The Hush wordmark, linking to / (docs/product.md §2). */
export function Logo() {
  return (
    // No prefetch: the header is always in view, so / would be fetched and processed during every load.
    <Link href={siteConfig.routes.home} prefetch={false} className="flex items-center gap-2 font-semibold text-ink-950" aria-label="Hush home">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7 text-brand-600" fill="none">
        <rect x="3" y="3" width="18" height="18" rx="6" fill="currentColor" />
        <path d="M9 11V9.5a3 3 0 0 1 6 0V11" stroke="white" strokeWidth="1.6" strokeLinecap="round" />
        <rect x="8" y="11" width="8" height="6" rx="1.6" fill="white" />
      </svg>
      <span className="text-lg tracking-tight">{siteConfig.name}</span>
    </Link>
  );
}
