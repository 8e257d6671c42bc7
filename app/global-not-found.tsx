import type { Metadata } from "next";
import "./globals.css";
import SiteLayout from "./(site)/layout";
import { LandingPage } from "@/components/landing/landing-page";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "@/components/ui/toaster";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";

/**
 * Any unknown path shows the landing page with status 404 (docs/product.md §2). Not a root not-found.tsx: that
 * would ride along in every page's payload.
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
    // The same theme set-up as app/layout.tsx.
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
