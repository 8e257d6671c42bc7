/**
 * Crawler rules shared by next.config.ts (X-Robots-Tag headers), app/robots.ts and app/sitemap.ts.
 * Plain data with no server-only import, because next.config.ts loads it outside the bundler.
 */

/**
 * Paths never to be indexed: personal or transactional screens (the public-pages issue: /chat,
 * /settings and the auth pages are noindex). Each also covers its sub-paths.
 */
export const noindexPaths = ["/chat", "/share", "/settings", "/signup", "/appsignup", "/purchase-complete", "/purchase-failed"] as const;

/** Public pages listed in sitemap.xml, with how often they change and their relative weight. */
export const sitemapPages = [
  { path: "/", changeFrequency: "weekly", priority: 1 },
  { path: "/pricing", changeFrequency: "weekly", priority: 0.8 },
  { path: "/contact", changeFrequency: "yearly", priority: 0.5 },
  { path: "/privacy", changeFrequency: "monthly", priority: 0.5 },
  { path: "/termsofservice", changeFrequency: "yearly", priority: 0.3 },
] as const;
