import type { MetadataRoute } from "next";
import { siteConfig } from "@/config/site";

/** /manifest.webmanifest: Hush installs as an app opening /chat; icons from scripts/make-app-icons.mjs. */
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
