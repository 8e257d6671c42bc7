import { headers } from "next/headers";
import { PricingClient } from "@/components/pricing/pricing-client";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";
import { countryOrDefault } from "@/lib/server/geo";
import { publicPageMetadata } from "@/lib/server/seo";

export const metadata = publicPageMetadata({
  title: "Pricing",
  description: "Hush Pro: unlimited private, encrypted AI chat with a stronger model. Launch offer: 75% off.",
  path: siteConfig.routes.pricing,
});

/** /pricing (docs/product.md §2, §9): the country is looked up as the server renders, so prices are in the first HTML. */
export default async function PricingPage() {
  const country = countryOrDefault(new Request("http://pricing.invalid/", { headers: await headers() }), "pricing");
  return (
    <div className="mx-auto w-full max-w-6xl flex-1 px-4 py-14 sm:px-6 sm:py-20">
      <h1 className="sr-only">Hush pricing</h1>
      <PricingClient country={country} proDailyLimit={getConfig().QUOTA_PRO_PER_DAY} />
    </div>
  );
}
