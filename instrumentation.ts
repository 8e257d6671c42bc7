/**
 * Next.js start-up hook: validate configuration, say which embedded defaults are in use, load the
 * master key and apply database migrations before the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("./lib/startup");
  await startServer();
}
