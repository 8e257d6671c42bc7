import type { MetadataRoute } from "next";
import { getConfig } from "@/lib/server/config";

/** /robots.txt: all but the API; noindex pages stay crawlable, so crawlers read their X-Robots-Tag header. */
export default function robots(): MetadataRoute.Robots {
  const base = getConfig().APP_URL.replace(/\/+$/, "");
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: "/api/" }],
    sitemap: `${base}/sitemap.xml`,
  };
}
