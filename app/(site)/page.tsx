import { LandingPage } from "@/components/landing/landing-page";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";
import { landingJsonLd, publicPageMetadata, serializeJsonLd } from "@/lib/server/seo";

export const metadata = publicPageMetadata({ title: null, description: siteConfig.description, path: "/" });

/** The landing page of docs/product.md §2, prerendered at build time. */
export default function HomePage() {
  const config = getConfig();
  return (
    <>
      <script
        type="application/ld+json"
        // Structured data must be inline JSON; serializeJsonLd escapes "<" so nothing can end the tag.
        dangerouslySetInnerHTML={{ __html: serializeJsonLd(landingJsonLd(config.APP_URL, config.CONTACT_EMAIL)) }}
      />
      <LandingPage />
    </>
  );
}
