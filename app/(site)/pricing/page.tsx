import { preload } from "react-dom";
import { PricingClient } from "@/components/pricing/pricing-client";
import { siteConfig } from "@/config/site";
import { publicPageMetadata } from "@/lib/seo";

export const metadata = publicPageMetadata({
  title: "Pricing",
  description: "Hush Pro: unlimited private, encrypted AI chat with a stronger model. Launch offer: 75% off.",
  path: siteConfig.routes.pricing,
});

/**
 * /pricing (spec §2): a static shell with a small client island that stays blank while the country
 * lookup runs (aria-busy), then shows the prices for that country (spec §9).
 */
export default function PricingPage() {
  // Issue 12: the country lookup starts with the HTML (a <link rel="preload"> in the head), in parallel
  // with the scripts; PricingClient's fetch() of the same URL takes that response (a preload as="fetch"
  // with crossorigin="anonymous" matches a same-origin fetch(); checked in Chromium: one request).
  preload("/api/get-country", { as: "fetch", crossOrigin: "anonymous" });
  return (
    <div className="mx-auto w-full max-w-6xl flex-1 px-4 py-14 sm:px-6 sm:py-20">
      <h1 className="sr-only">Hush pricing</h1>
      <PricingClient />
    </div>
  );
}
