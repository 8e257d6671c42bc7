import type { MetadataRoute } from "next";
import { getConfig } from "@/lib/server/config";

/**
 * /robots.txt: everything but the API may be crawled. The noindex pages stay crawlable on purpose, so
 * crawlers can read their X-Robots-Tag header (next.config.ts) and drop them from the index.
 */
export default function robots(): MetadataRoute.Robots {
  const base = getConfig().APP_URL.replace(/\/+$/, "");
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: "/api/" }],
    sitemap: `${base}/sitemap.xml`,
  };
}
