import "server-only";
import type { Metadata } from "next";
import { siteConfig } from "@/config/site";

/** Metadata of the public pages; absolute URLs come from the root layout's metadataBase, so pages pass paths. */

export const shareImage = {
  size: { width: 1200, height: 630 },
  alt: `${siteConfig.name}: ${siteConfig.tagline}`,
} as const;

/** `title` null keeps the site's default title; `path` gives the canonical URL and og:url. */
export function publicPageMetadata({ title, description, path }: { title: string | null; description: string; path: string }): Metadata {
  const fullTitle = title ? `${title} · ${siteConfig.name}` : `${siteConfig.name}: ${siteConfig.tagline}`;
  return {
    ...(title ? { title } : {}),
    description,
    alternates: { canonical: path },
    openGraph: {
      type: "website",
      siteName: siteConfig.name,
      locale: "en_NZ",
      url: path,
      title: fullTitle,
      description,
      // A page-level openGraph replaces the root one whole.
      images: [{ url: "/opengraph-image", ...shareImage.size, alt: shareImage.alt, type: "image/png" }],
    },
    twitter: {
      card: "summary_large_image",
      title: fullTitle,
      description,
      images: [{ url: "/twitter-image", ...shareImage.size, alt: shareImage.alt }],
    },
  };
}

/** schema.org data for the landing page: only stated facts, no ratings. `appUrl` without a trailing slash. */
export function landingJsonLd(appUrl: string, contactEmail: string): Record<string, unknown> {
  const base = appUrl.replace(/\/+$/, "");
  const orgId = `${base}/#organization`;
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": orgId,
        name: siteConfig.name,
        url: `${base}/`,
        logo: `${base}/icon.svg`,
        email: contactEmail,
        address: { "@type": "PostalAddress", addressLocality: "Auckland", addressCountry: "NZ" },
        areaServed: ["NZ", "AU"],
      },
      {
        "@type": "SoftwareApplication",
        "@id": `${base}/#product`,
        name: siteConfig.name,
        description: siteConfig.description,
        url: `${base}/`,
        applicationCategory: "BusinessApplication",
        operatingSystem: "Web browser",
        offers: { "@type": "Offer", price: "0", priceCurrency: "USD", description: "Free to try" },
        publisher: { "@id": orgId },
      },
    ],
  };
}

/** With "<" escaped so no string can close the tag. */
export function serializeJsonLd(data: Record<string, unknown>): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
