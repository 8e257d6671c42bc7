import type { Metadata, Viewport } from "next";
import "./globals.css";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { Toaster } from "@/components/ui/toaster";
import { RegisterServiceWorker } from "@/components/pwa/register-service-worker";
import { chunkLoaderScript } from "@/lib/server/security/chunk-loader";

/** Site-wide defaults; metadataBase turns the pages' relative canonical and image URLs into absolute ones. */
export function generateMetadata(): Metadata {
  return {
    metadataBase: new URL(getConfig().APP_URL),
    title: { default: `${siteConfig.name}: ${siteConfig.tagline}`, template: `%s · ${siteConfig.name}` },
    description: siteConfig.description,
    applicationName: siteConfig.name,
    openGraph: { type: "website", siteName: siteConfig.name, locale: "en_NZ" },
    twitter: { card: "summary_large_image" },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#15171d" },
  ],
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const loader = chunkLoaderScript();
  return (
    // next-themes sets class="dark"/"light" and color-scheme on <html> before hydration.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh font-sans">
        {/* First, before Next's payload scripts: every chunk loaded later gets its integrity (docs/verify.md). */}
        {loader && <script dangerouslySetInnerHTML={{ __html: loader }} />}
        {/* No nonce: reading it here would make every page dynamic; a CSP allows this inline script by its hash. */}
        <ThemeProvider nonce={undefined}>
          {children}
          <Toaster />
          <RegisterServiceWorker />
        </ThemeProvider>
      </body>
    </html>
  );
}
