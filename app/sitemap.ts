import type { MetadataRoute } from "next";
import { sitemapPages } from "@/config/seo";
import { getConfig } from "@/lib/server/config";

/** /sitemap.xml: the indexable public pages (config/seo.ts), as absolute URLs under APP_URL. */
export default function sitemap(): MetadataRoute.Sitemap {
  const base = getConfig().APP_URL.replace(/\/+$/, "");
  return sitemapPages.map((p) => ({
    url: `${base}${p.path === "/" ? "/" : p.path}`,
    changeFrequency: p.changeFrequency,
    priority: p.priority,
  }));
}
