import "server-only";
import type { Metadata } from "next";
import { siteConfig } from "@/config/site";

/**
 * Metadata of the public pages: one home for titles, canonical URLs, Open Graph and Twitter cards,
 * crawler rules and the structured data of the landing page. Absolute URLs come from the root layout's
 * metadataBase (getConfig().APP_URL), so pages pass paths only.
 */

/** Size and alt text of the generated sharing image (app/opengraph-image.tsx, app/twitter-image.tsx). */
export const shareImage = {
  size: { width: 1200, height: 630 },
  alt: `${siteConfig.name}: ${siteConfig.tagline}`,
} as const;

/**
 * Metadata for an indexable public page.
 * @param title the page title; null keeps the site's default title (the landing page).
 * @param path the page's own path, used for the canonical URL and og:url.
 */
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
      // A page-level openGraph replaces the root one whole, so the generated images are named again here.
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

/**
 * schema.org structured data for the landing page: the organisation and the product. Only facts the
 * spec states (name, Auckland base, NZ and AU, free to try); no ratings or certifications.
 * @param appUrl absolute origin of the app, without a trailing slash.
 */
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

/** JSON for a <script type="application/ld+json">, with "<" escaped so no string can close the tag. */
export function serializeJsonLd(data: Record<string, unknown>): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
