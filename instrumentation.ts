/**
 * Next.js start-up hook: stamp each request with its socket peer (lib/server/peer-address.ts, for the client
 * address rule of lib/server/client-address.ts), add Subresource Integrity to server-rendered HTML (lib/server/security/sri.ts),
 * validate configuration, say which embedded defaults are in
 * use, apply database migrations before the first request and offer server.mjs its hot path
 * (lib/server/hot-path.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First, before anything slow: requests handled before the stamp count as one unknown client.
  const { installPeerStamp } = await import("./lib/server/peer-address");
  installPeerStamp();
  // Requests Next.js itself would answer with a 500 (TRACE, OPTIONS *, bad %-encoding) get a 4xx.
  (await import("./lib/server/request-guard")).installRequestGuard();
  // Integrity on every chunk script and root stylesheet of pages rendered per request (docs/verify.md).
  if (process.env.NODE_ENV === "production" && !(await import("./lib/server/security/sri")).installSriHook()) {
    (await import("./lib/server/log")).logger("hush").warn("Subresource Integrity hook not installed: Next's runtime is not the one lib/server/security/sri.ts knows");
  }
  const { startServer } = await import("./lib/server/startup");
  // The development enclave lives outside lib (dev/), so it is handed in rather than imported by lib.
  await startServer(
    async (port, searxngUrl) => {
      const upstream = (await import("./dev/enclave-models")).upstreamFromEnv(process.env);
      return (await import("./dev/enclave")).startDevEnclave({ port, searxngUrl, upstream });
    },
    async (port) => (await import("./dev/searxng")).startFakeSearxng({ port }),
  );
  // The chat turns server.mjs answers without Next's routing, from this copy of lib.
  (await import("./lib/server/hot-path")).installHotPath();
}
