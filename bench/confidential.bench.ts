/**
 * The browser-side cost of a confidential turn (docs/issues.md #20), measured in Node with the same code and Web Crypto:
 * `npx tsx bench/confidential.bench.ts`.
 *
 * - attestation cold: `verifyEnclave` of the development document and of Tinfoil's recorded production bundle
 *   (tests/fixtures/confidential; fixed clock inside its certificate's validity), fresh each time;
 * - attestation cached: `VerificationCache.verify` of the same document (a SHA-256 of it and a map lookup);
 * - encryption per 10 KB: `sendConfidentialRequest`'s encryption step alone (HPKE setup + seal of 10 KB), and a
 *   full round trip of a 10 KB request through the development enclave on loopback (no chunk delay).
 * Medians of N runs (default 20; `CONFIDENTIAL_BENCH_RUNS`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Identity } from "ehbp";
import { createVerificationCache, verifyEnclave } from "../lib/browser/confidential/attestation";
import { sendConfidentialRequest } from "../lib/browser/confidential/ehbp-client";
import { startDevEnclave } from "../dev/enclave";

const RUNS = Number(process.env.CONFIDENTIAL_BENCH_RUNS ?? 20);

async function median(label: string, fn: () => Promise<unknown>): Promise<void> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`${label.padEnd(58)} median ${p(0.5)} ms   p90 ${p(0.9)} ms`);
}

async function main(): Promise<void> {
  const enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0 });
  const host = new URL(enclave.url).host;
  const devOptions = { trust: "development" as const, enclaveHost: host, configRepo: "hush/development-enclave" };
  const devDocument = await (await fetch(`${enclave.url}/.well-known/tinfoil-attestation`)).json();
  const bundle = JSON.parse(readFileSync(path.join(import.meta.dirname, "../tests/fixtures/confidential/tinfoil-attestation-bundle.json"), "utf8"));
  const prodOptions = {
    trust: "production" as const,
    enclaveHost: "inference.tinfoil.sh",
    configRepo: "tinfoilsh/confidential-model-router",
    now: new Date("2026-02-01T00:00:00Z"),
  };

  console.log(`Node ${process.version}, ${RUNS} runs each`);
  await median("attestation cold, development document", () => verifyEnclave(devDocument, devOptions));
  await median("attestation cold, Tinfoil production bundle (offline)", () => verifyEnclave(bundle, prodOptions));
  const cache = createVerificationCache();
  await cache.verify(bundle, prodOptions);
  await median("attestation cached (same production bundle)", () => cache.verify(bundle, prodOptions));

  const verified = await verifyEnclave(devDocument, devOptions);
  const tenKb = JSON.stringify({ model: "m", messages: [{ role: "user", content: "x".repeat(10 * 1024 - 60) }] });
  await median("encrypt 10 KB request (HPKE setup + seal + framing)", async () => {
    const identity = await Identity.fromPublicKeyHex(verified.hpkePublicKey);
    const { request } = await identity.encryptRequestWithContext(new Request(enclave.url, { method: "POST", body: tenKb }));
    await request.arrayBuffer();
  });
  await median("round trip 10 KB, JSON answer, dev enclave on loopback", async () => {
    const { response } = await sendConfidentialRequest(verified, `${enclave.url}/v1/chat/completions`, tenKb);
    await response.arrayBuffer();
  });
  await enclave.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
