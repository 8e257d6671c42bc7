/**
 * `npm run enclave:dev [-- --port N] [-- --tamper] [-- --test-controls]`: the development enclave (dev/enclave.ts)
 * on ENCLAVE_PORT (default 8788); searches go to SEARXNG_URL, the model is ENCLAVE_UPSTREAM_URL or the responder.
 */
import { DEFAULT_ENCLAVE_PORT, startDevEnclave } from "../dev/enclave";
import { upstreamFromEnv } from "../dev/enclave-models";
import { DEFAULT_SEARCH_DEV_PORT } from "../dev/searxng";

function parsePort(value: string | undefined, from: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${from} must be a port number, got "${value}"`);
  return port;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let port = parsePort(process.env.ENCLAVE_PORT, "ENCLAVE_PORT") ?? DEFAULT_ENCLAVE_PORT;
  let tamper = false;
  let testControls = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--tamper") tamper = true;
    else if (arg === "--test-controls") testControls = true;
    else if (arg === "--port") port = parsePort(args[++i], "--port") ?? port;
    else if (arg.startsWith("--port=")) port = parsePort(arg.slice("--port=".length), "--port") ?? port;
    else throw new Error(`Unknown option ${arg} (use --port N, --tamper, --test-controls)`);
  }
  const searxngUrl = process.env.SEARXNG_URL || `http://127.0.0.1:${process.env.SEARCH_DEV_PORT || DEFAULT_SEARCH_DEV_PORT}`;
  const upstream = upstreamFromEnv(process.env);
  const enclave = await startDevEnclave({ port, tamper, testControls, searxngUrl, upstream });
  console.log(
    `Development enclave on ${enclave.url}${tamper ? " (TAMPERED measurement: verification must refuse it)" : ""}\n` +
      `  HPKE public key ${enclave.hpkePublicKey}\n` +
      `  Web search: ${searxngUrl}\n` +
      `  Model: ${upstream ? `${upstream.model ?? "the request's model"} at ${new URL(upstream.url).origin}` : "the development responder"}\n` +
      "  Development trust only: its attestation is signed by the development root published in the repository.",
  );
  const stop = () => void enclave.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
