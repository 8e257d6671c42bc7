/** `npm run search:dev [-- --port N]`: the development SearXNG stand-in (dev/searxng.ts) on SEARCH_DEV_PORT. */
import { DEFAULT_SEARCH_DEV_PORT, startFakeSearxng } from "../dev/searxng";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let port = Number(process.env.SEARCH_DEV_PORT ?? DEFAULT_SEARCH_DEV_PORT);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--port") port = Number(args[++i]);
    else if (arg.startsWith("--port=")) port = Number(arg.slice("--port=".length));
    else throw new Error(`Unknown option ${arg} (use --port N)`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got "${port}"`);
  const engine = await startFakeSearxng({ port });
  console.log(`Development SearXNG stand-in on ${engine.url} (fixed local corpus; set SEARXNG_URL=${engine.url})`);
  const stop = () => void engine.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
