"use client";

import { useEffect } from "react";

/**
 * Registers the service worker (/sw.js, app/sw.js/route.ts) once the page has loaded, so Hush installs
 * as an app. Production only: `next dev` serves changing files the worker
 * must not keep. `updateViaCache: "none"`: update checks always reach the server.
 */
export function RegisterServiceWorker() {
  useEffect(() => {
    if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
    const register = () => void navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }, []);
  return null;
}
