/**
 * Next.js start-up hook: stamp each request with its socket peer (lib/peer-stamp.ts, for the client
 * address rule of lib/client-address.ts), add Subresource Integrity to server-rendered HTML (lib/security/sri.ts),
 * validate configuration, say which embedded defaults are in
 * use, apply database migrations before the first request and offer server.mjs its hot path
 * (lib/api/hot-path.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First, before anything slow: requests handled before the stamp count as one unknown client.
  const { installPeerStamp } = await import("./lib/peer-stamp");
  installPeerStamp();
  // Requests Next.js itself would answer with a 500 (TRACE, OPTIONS *, bad %-encoding) get a 4xx.
  (await import("./lib/request-guard")).installRequestGuard();
  // Integrity on every chunk script and root stylesheet of pages rendered per request (docs/verify.md).
  if (process.env.NODE_ENV === "production" && !(await import("./lib/security/sri")).installSriHook()) {
    (await import("./lib/log")).logger("hush").warn("Subresource Integrity hook not installed: Next's runtime is not the one lib/security/sri.ts knows");
  }
  const { startServer } = await import("./lib/startup");
  await startServer();
  // The chat turns server.mjs answers without Next's routing, from this copy of lib (docs/issues.md #24).
  (await import("./lib/api/hot-path")).installHotPath();
}
