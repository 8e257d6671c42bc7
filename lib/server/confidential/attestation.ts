import "server-only";
import { assembleAttestationBundle, type AttestationBundle } from "@tinfoilsh/verifier";
import { getConfig, type ConfidentialSettings } from "@/lib/server/config";
import { api } from "@/lib/shared/api/contract";
import { jsonError } from "@/lib/server/http";
import { logger } from "@/lib/server/log";
import { MAX_CONNECT_MS, NOT_CONFIGURED } from "./enclave";

// GET /api/confidential/attestation (docs/confidential-inference.md): the browser verifies what this relays.

const ATTESTATION_PATH = "/.well-known/tinfoil-attestation";
const MAX_ATTESTATION_BYTES = 1024 * 1024;

let bundleCache: { key: string; expires: number; value: Promise<AttestationBundle> } | undefined;
const FAILURE_CACHE_MS = 10_000;
export const ATTESTATION_LIMIT = api.confidentialAttestation.rateLimit;
let failedUntil: { key: string; until: number } | undefined;

/** The enclave's attestation for the browser to verify; 404 when off, 502 when it cannot be fetched. */
export async function relayAttestation(): Promise<Response> {
  const config = getConfig();
  const settings = config.confidential;
  if (!settings) return NOT_CONFIGURED();
  const key = `${settings.trust} ${settings.origin} ${settings.configRepo ?? ""}`;
  const unavailable = () => jsonError(502, "The secure enclave's attestation could not be fetched. Please try again in a moment.");
  if (failedUntil && failedUntil.key === key && failedUntil.until > Date.now()) return unavailable();
  try {
    if (settings.trust === "development") return await developmentAttestation(settings, config.CONFIDENTIAL_TIMEOUT_MS);
    const bundle = await productionBundle(settings, config.CONFIDENTIAL_ATTESTATION_CACHE_SECONDS);
    return Response.json(bundle, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    failedUntil = { key, until: Date.now() + FAILURE_CACHE_MS };
    logger("confidential").error({ err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "attestation unavailable");
    return unavailable();
  }
}

async function developmentAttestation(settings: ConfidentialSettings, timeoutMs: number): Promise<Response> {
  const upstream = await fetch(`${settings.origin}${ATTESTATION_PATH}`, {
    redirect: "error",
    signal: AbortSignal.timeout(Math.min(timeoutMs, MAX_CONNECT_MS)),
    headers: { Accept: "application/json" },
  });
  if (upstream.status !== 200) throw new Error(`enclave answered ${upstream.status}`);
  const bytes = await readBounded(upstream, MAX_ATTESTATION_BYTES);
  return new Response(bytes, {
    status: 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error("attestation document too large");
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function productionBundle(settings: ConfidentialSettings, cacheSeconds: number): Promise<AttestationBundle> {
  const key = `${settings.host} ${settings.configRepo}`;
  const now = Date.now();
  if (bundleCache && bundleCache.key === key && bundleCache.expires > now) return bundleCache.value;
  // A failure is not kept, so the next request tries again.
  const value = assembleAttestationBundle(settings.host, settings.configRepo!);
  const entry = { key, expires: now + cacheSeconds * 1000, value };
  bundleCache = entry;
  value.catch(() => {
    if (bundleCache === entry) bundleCache = undefined;
  });
  return value;
}

export function resetAttestationCacheForTests(): void {
  bundleCache = undefined;
  failedUntil = undefined;
}
