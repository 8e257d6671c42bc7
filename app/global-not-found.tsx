import type { Metadata } from "next";
import "./globals.css";
import SiteLayout from "./(site)/layout";
import { LandingPage } from "@/components/landing/landing-page";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "@/components/ui/toaster";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";

/**
 * Any unknown path (docs/product.md §2) shows the landing page inside the shared layout, answered with status 404
 * and noindex so crawlers do not index it. global-not-found (next.config experimental.globalNotFound)
 * rather than a root not-found.tsx: a root not-found would ride along in every page's payload.
 */
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(getConfig().APP_URL),
    title: `${siteConfig.name}: ${siteConfig.tagline}`,
    description: siteConfig.description,
    // Next adds <meta name="robots" content="noindex"> to not-found responses by itself.
  };
}

export default function GlobalNotFound() {
  return (
    // The same theme set-up as app/layout.tsx (the CSP nonce note there applies here too).
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh font-sans">
        <ThemeProvider nonce={undefined}>
          <SiteLayout>
            <LandingPage />
          </SiteLayout>
          <Toaster />
        </ThemeProvider>
      </body>
    </html>
  );
}
