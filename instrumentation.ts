/**
 * Next.js start-up hook: validate configuration, say which embedded defaults are in use, load the
 * master key and apply database migrations before the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Requests Next.js itself would answer with a 500 (TRACE, OPTIONS *, bad %-encoding) get a 4xx.
  (await import("./lib/request-guard")).installRequestGuard();
  const { startServer } = await import("./lib/startup");
  await startServer();
}
