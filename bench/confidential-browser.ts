/**
 * Browser entry of bench/confidential-relay.ts (bundled by esbuild, loaded in headless Chromium): the same
 * modules a confidential turn runs in the page (lib/browser/confidential/attestation.ts, ehbp via
 * lib/browser/confidential/ehbp-client.ts), exposed as `window.confidentialBench` for timed `page.evaluate` calls.
 * Each function returns the milliseconds of `runs` calls (performance.now()), so the page does the timing.
 */
import { Identity } from "ehbp";
import { createVerificationCache, verifyEnclave, type VerifyEnclaveOptions } from "../lib/browser/confidential/attestation";

type Options = Omit<VerifyEnclaveOptions, "now"> & { now?: string };

function withClock(options: Options): VerifyEnclaveOptions {
  return { ...options, now: options.now === undefined ? undefined : new Date(options.now) };
}

/**
 * `runs` samples of `fn`'s time (ms per call). performance.now() is coarse in a page that is not
 * cross-origin isolated (0.1 ms in Chromium), so a call shorter than 5 ms is timed in batches of calls.
 */
async function times(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const probe = performance.now();
  await fn();
  const once = performance.now() - probe;
  const batch = once >= 5 ? 1 : Math.min(1000, Math.ceil(5 / Math.max(once, 0.05)));
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    for (let j = 0; j < batch; j++) await fn();
    out.push((performance.now() - start) / batch);
  }
  return out;
}

/** A request body of about `bytes` bytes, shaped like a chat request (JSON text). */
function requestOf(bytes: number): string {
  const words = "private encrypted chat turns travel sealed to the enclave ";
  const content = words.repeat(Math.ceil(bytes / words.length)).slice(0, Math.max(0, bytes - 80));
  return JSON.stringify({ model: "hush-dev-basic", stream: true, messages: [{ role: "user", content }] });
}

const api = {
  /** `verifyEnclave` of `document`, fresh each call (no cache). */
  verifyCold: (document: unknown, options: Options, runs: number) => times(runs, () => verifyEnclave(document, withClock(options))),
  /** `VerificationCache.verify` of `document` after one verification: what a turn pays on a cache hit. */
  async verifyCached(document: unknown, options: Options, runs: number) {
    const cache = createVerificationCache();
    await cache.verify(document, withClock(options));
    return times(runs, () => cache.verify(document, withClock(options)));
  },
  /** Reference for attestation: one ECDSA P-256 signature check of the document's JSON bytes (Web Crypto). */
  async ecdsaVerify(document: unknown, runs: number) {
    const bytes = new TextEncoder().encode(JSON.stringify(document));
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, bytes);
    return times(runs, () => crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, pair.publicKey, signature, bytes));
  },
  /**
   * EHBP encryption of a `bytes`-byte request as sendConfidentialRequest does it: key import, HPKE setup,
   * seal and framing of the body, read back as bytes.
   */
  encrypt(hpkePublicKey: string, bytes: number, runs: number) {
    const body = requestOf(bytes);
    return times(runs, async () => {
      const identity = await Identity.fromPublicKeyHex(hpkePublicKey);
      const plaintext = new TextEncoder().encode(body);
      const { request } = await identity.encryptRequestWithContext(new Request(location.origin + "/x", { method: "POST", body: plaintext }));
      await request.arrayBuffer();
    });
  },
  /** Reference: JSON.stringify + TextEncoder + one AES-256-GCM seal (Web Crypto) of the same bytes. */
  async aesGcm(bytes: number, runs: number) {
    const body = JSON.parse(requestOf(bytes)) as unknown;
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
    return times(runs, async () => {
      const plaintext = new TextEncoder().encode(JSON.stringify(body));
      await crypto.subtle.encrypt({ name: "AES-GCM", iv: crypto.getRandomValues(new Uint8Array(12)) }, key, plaintext);
    });
  },
};

(globalThis as unknown as { confidentialBench: typeof api }).confidentialBench = api;
