import type { MetadataRoute } from "next";
import { siteConfig } from "@/config/site";

/**
 * /manifest.webmanifest: Hush installs as an app on desktop and phone,
 * opening /chat in its own window. Next links it from every page's head. Icons: public/icons
 * (scripts/make-app-icons.mjs). The service worker that goes with it is app/sw.js/route.ts.
 */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Hush",
    short_name: "Hush",
    description: siteConfig.description,
    id: "/chat",
    start_url: "/chat",
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#6425f0",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
