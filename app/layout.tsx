import type { Metadata, Viewport } from "next";
import "./globals.css";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/config";

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
  themeColor: "#ffffff",
};

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans">{children}</body>
    </html>
  );
}
