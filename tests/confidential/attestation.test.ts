/**
 * verifyEnclave: the development path against the real development enclave (and documents signed by other
 * keys), and the production path replaying Tinfoil's recorded real attestation bundle offline with a fixed
 * clock (tests/fixtures/confidential/README.md says where it comes from).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ATTESTATION_REFUSED,
  PRODUCTION_CACHE_SECONDS,
  createVerificationCache,
  isAttestationRefused,
  verifyEnclave,
  type AttestationRefusalReason,
  type VerifyEnclaveOptions,
} from "@/lib/browser/confidential/attestation";
import { createDevelopmentAttestation, startDevEnclave, TAMPERED_MEASUREMENT, type DevEnclave } from "@/dev/enclave";
import { AppError } from "@/lib/shared/errors";
import { DEVELOPMENT_MEASUREMENT, DEVELOPMENT_RELEASE } from "@/lib/browser/confidential/development-root";

async function refusal(promise: Promise<unknown>): Promise<AttestationRefusalReason> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(ATTESTATION_REFUSED);
    if (!isAttestationRefused(error)) throw error;
    return error.reason;
  }
  throw new Error("expected AttestationRefused, but verification succeeded");
}

async function fetchDocument(enclave: DevEnclave): Promise<unknown> {
  const res = await fetch(`${enclave.url}/.well-known/tinfoil-attestation`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("development trust", () => {
  let enclave: DevEnclave;
  let tampered: DevEnclave;
  let host: string;
  let dev: VerifyEnclaveOptions;

  beforeAll(async () => {
    enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0 });
    tampered = await startDevEnclave({ port: 0, tamper: true, chunkDelayMs: 0 });
    host = new URL(enclave.url).host;
    dev = { trust: "development", enclaveHost: host, configRepo: "hush/development-enclave" };
  });
  afterAll(async () => {
    await enclave.close();
    await tampered.close();
  });

  it("accepts the development enclave and reports what was verified", async () => {
    const before = Date.now();
    const verified = await verifyEnclave(await fetchDocument(enclave), dev);
    expect(verified.trust).toBe("development");
    expect(verified.enclaveHost).toBe(host);
    expect(verified.hpkePublicKey).toBe(enclave.hpkePublicKey);
    expect(verified.measurement).toEqual({ type: DEVELOPMENT_MEASUREMENT.type, registers: [...DEVELOPMENT_MEASUREMENT.registers] });
    expect(verified.codeFingerprint).toBe(DEVELOPMENT_MEASUREMENT.registers[0]);
    expect(verified.sourceRelease).toEqual(DEVELOPMENT_RELEASE);
    expect(verified.hardware).toMatch(/development/i);
    // Signed for one hour.
    expect(verified.expiresAt.getTime() - before).toBeGreaterThan(59 * 60 * 1000);
    expect(verified.expiresAt.getTime() - before).toBeLessThanOrEqual(60 * 60 * 1000 + 1000);
  });

  it("refuses the --tamper enclave (measurement differs from the pinned one)", async () => {
    const document = await fetchDocument(tampered);
    expect(await refusal(verifyEnclave(document, { ...dev, enclaveHost: new URL(tampered.url).host }))).toBe("measurement");
  });

  it("refuses a key that is not bound to the report", async () => {
    const document = (await fetchDocument(enclave)) as { hpkePublicKey: string };
    const otherKey = (await startOtherKey()).hpkePublicKey;
    expect(await refusal(verifyEnclave({ ...document, hpkePublicKey: otherKey }, dev))).toBe("key_not_bound");
    // A report bound to another key, presented with the enclave's key.
    const unbound = await createDevelopmentAttestation({ hpkePublicKey: enclave.hpkePublicKey, enclaveHost: host, reportData: "00".repeat(32) });
    expect(await refusal(verifyEnclave(unbound, dev))).toBe("key_not_bound");
  });

  it("refuses an expired document and one issued in the future (fixed clock)", async () => {
    const issuedAt = new Date("2026-03-01T12:00:00Z");
    const document = await createDevelopmentAttestation({ hpkePublicKey: enclave.hpkePublicKey, enclaveHost: host, issuedAt });
    await expect(verifyEnclave(document, { ...dev, now: new Date("2026-03-01T12:30:00Z") })).resolves.toMatchObject({ trust: "development" });
    expect(await refusal(verifyEnclave(document, { ...dev, now: new Date("2026-03-01T13:00:00Z") }))).toBe("expired");
    expect(await refusal(verifyEnclave(document, { ...dev, now: new Date("2026-03-01T11:50:00Z") }))).toBe("not_yet_valid");
  });

  it("refuses a document signed by another root", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const forged = await createDevelopmentAttestation({
      hpkePublicKey: enclave.hpkePublicKey,
      enclaveHost: host,
      signingJwk: await exportJWK(privateKey),
    });
    expect(await refusal(verifyEnclave(forged, dev))).toBe("signature");
  });

  it("refuses a changed byte in the signed report and a document for another host", async () => {
    const document = (await fetchDocument(enclave)) as { body: string };
    const [header, payload, signature] = document.body.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    claims.measurement.registers = [...DEVELOPMENT_MEASUREMENT.registers];
    claims.exp += 3600;
    const edited = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    expect(await refusal(verifyEnclave({ ...document, body: edited }, dev))).toBe("signature");
    expect(await refusal(verifyEnclave(document, { ...dev, enclaveHost: "enclave.example" }))).toBe("wrong_host");
  });

  it("refuses malformed documents", async () => {
    expect(await refusal(verifyEnclave(null, dev))).toBe("unexpected_document");
    expect(await refusal(verifyEnclave({ format: "https://hush.invalid/predicate/development/v1", body: "x" }, dev))).toBe("malformed");
  });

  it("under production trust refuses the development enclave", async () => {
    const document = await fetchDocument(enclave);
    expect(await refusal(verifyEnclave(document, { ...dev, trust: "production" }))).toBe("development_document");
    expect(await refusal(verifyEnclave(await fetchDocument(tampered), { ...dev, trust: "production" }))).toBe("development_document");
  });

  it("caches per enclave key until expiry, and clears", async () => {
    const cache = createVerificationCache();
    const issuedAt = new Date("2026-03-01T12:00:00Z");
    const document = await createDevelopmentAttestation({ hpkePublicKey: enclave.hpkePublicKey, enclaveHost: host, issuedAt });
    const first = await cache.verify(document, { ...dev, now: new Date("2026-03-01T12:00:10Z") });
    const again = await cache.verify(document, { ...dev, now: new Date("2026-03-01T12:20:00Z") });
    expect(again).toBe(first);
    expect(cache.get(enclave.hpkePublicKey, new Date("2026-03-01T12:59:00Z"))).toBe(first);
    expect(cache.latest("development", host, new Date("2026-03-01T12:59:00Z"))).toBe(first);
    expect(cache.latest("production", host, new Date("2026-03-01T12:59:00Z"))).toBeUndefined();
    // Past expiry the entry is gone and the document itself is refused.
    expect(cache.get(enclave.hpkePublicKey, new Date("2026-03-01T13:00:01Z"))).toBeUndefined();
    expect(await refusal(cache.verify(document, { ...dev, now: new Date("2026-03-01T13:00:01Z") }))).toBe("expired");
    cache.clear();
    expect(cache.get(enclave.hpkePublicKey, new Date("2026-03-01T12:30:00Z"))).toBeUndefined();
    // A refused document is never cached.
    const tamperedDoc = await fetchDocument(tampered);
    const tamperedHost = new URL(tampered.url).host;
    expect(await refusal(cache.verify(tamperedDoc, { ...dev, enclaveHost: tamperedHost }))).toBe("measurement");
    expect(cache.get(tampered.hpkePublicKey)).toBeUndefined();
  });

  it("the tamper measurement differs from the pinned one", () => {
    expect(TAMPERED_MEASUREMENT.registers[0]).not.toBe(DEVELOPMENT_MEASUREMENT.registers[0]);
  });
});

async function startOtherKey(): Promise<{ hpkePublicKey: string }> {
  const other = await startDevEnclave({ port: 0 });
  await other.close();
  return { hpkePublicKey: other.hpkePublicKey };
}

describe("production trust: Tinfoil's recorded bundle, replayed offline", () => {
  // Recorded by tinfoil-js from inference.tinfoil.sh; its enclave certificate is valid 2026-01-22..2026-04-22.
  const bundle = JSON.parse(
    readFileSync(path.join(import.meta.dirname, "../fixtures/confidential/tinfoil-attestation-bundle.json"), "utf8"),
  ) as Record<string, unknown> & { domain: string; enclaveCert: string; digest: string; enclaveAttestationReport: { format: string; body: string } };
  const now = new Date("2026-02-01T00:00:00Z");
  const prod: VerifyEnclaveOptions = { trust: "production", enclaveHost: "inference.tinfoil.sh", configRepo: "tinfoilsh/confidential-model-router", now };

  // The verifier checks AMD's certificate chain (VCEK valid 2026-01-11..2033-01-11) against the system clock,
  // not against `now`: fix that clock too, so the replay does not depend on the day the test runs.
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it("accepts it, with no network call", async () => {
    const realFetch = globalThis.fetch;
    const calls: string[] = [];
    globalThis.fetch = ((input: RequestInfo | URL) => {
      calls.push(String(input));
      return Promise.reject(new Error("no network in this test"));
    }) as typeof fetch;
    try {
      const verified = await verifyEnclave(bundle, prod);
      expect(verified.trust).toBe("production");
      expect(verified.enclaveHost).toBe("inference.tinfoil.sh");
      expect(verified.hardware).toBe("AMD SEV-SNP confidential VM");
      expect(verified.measurement.type).toBe("https://tinfoil.sh/predicate/sev-snp-guest/v2");
      expect(verified.measurement.registers).toEqual([
        "09ef32acf90fcfeb6206d1a46c13145cef736ebbb83f18eaff680b686232031546ff5fd39c44599699ee8734cbbeb519",
      ]);
      expect(verified.codeFingerprint).toBe(verified.measurement.registers[0]);
      expect(verified.sourceRelease).toEqual({ repo: "tinfoilsh/confidential-model-router", digest: bundle.digest });
      expect(verified.hpkePublicKey).toBe("3565781f4ee796cfb144df2a31a3ae5e87747bb5ba91aafc6b80e2e268b8603d");
      expect(verified.expiresAt.getTime()).toBe(now.getTime() + PRODUCTION_CACHE_SECONDS * 1000);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(calls).toEqual([]);
  });

  it("refuses it outside its certificate's validity (the report itself carries no time)", async () => {
    expect(await refusal(verifyEnclave(bundle, { ...prod, now: new Date("2026-11-25T00:00:00Z") }))).toBe("expired");
    expect(await refusal(verifyEnclave(bundle, { ...prod, now: new Date("2026-01-01T00:00:00Z") }))).toBe("not_yet_valid");
    // Capped at the certificate's notAfter.
    const late = await verifyEnclave(bundle, { ...prod, now: new Date("2026-04-22T21:00:00Z") });
    expect(late.expiresAt.toISOString()).toBe("2026-04-22T21:44:37.000Z");
  });

  it("refuses it once AMD's VCEK certificate has expired (checked by the verifier on the system clock)", async () => {
    const later = new Date("2033-06-01T00:00:00Z");
    vi.setSystemTime(later);
    try {
      expect(await refusal(verifyEnclave(bundle, { ...prod, now: later }))).toBe("hardware");
    } finally {
      vi.setSystemTime(now);
    }
  });

  it("refuses a tampered certificate", async () => {
    expect(await refusal(verifyEnclave({ ...bundle, enclaveCert: bundle.enclaveCert.replace("MII", "XXX") }, prod))).toBe("certificate");
  });

  it("refuses a tampered measurement in the hardware report", async () => {
    const report = gunzipSync(Buffer.from(bundle.enclaveAttestationReport.body, "base64"));
    const MEASUREMENT_OFFSET = 0x90; // AMD SEV-SNP ABI, ATTESTATION_REPORT.MEASUREMENT (48 bytes)
    expect(report.subarray(MEASUREMENT_OFFSET, MEASUREMENT_OFFSET + 48).toString("hex")).toBe(
      "09ef32acf90fcfeb6206d1a46c13145cef736ebbb83f18eaff680b686232031546ff5fd39c44599699ee8734cbbeb519",
    );
    report[MEASUREMENT_OFFSET] = report[MEASUREMENT_OFFSET]! ^ 0x01;
    const body = gzipSync(report).toString("base64");
    const tampered = { ...bundle, enclaveAttestationReport: { ...bundle.enclaveAttestationReport, body } };
    expect(await refusal(verifyEnclave(tampered, prod))).toBe("hardware");
  });

  it("refuses a different release digest (code provenance)", async () => {
    expect(await refusal(verifyEnclave({ ...bundle, digest: "a".repeat(64) }, prod))).toBe("code");
    expect(await refusal(verifyEnclave(bundle, { ...prod, configRepo: "someone/else" }))).toBe("code");
  });

  it("refuses a wrong domain", async () => {
    // The configured enclave is another host.
    expect(await refusal(verifyEnclave(bundle, { ...prod, enclaveHost: "enclave.example" }))).toBe("wrong_host");
    // The relay relabels the bundle for the configured host: the certificate does not cover it.
    expect(await refusal(verifyEnclave({ ...bundle, domain: "enclave.example" }, { ...prod, enclaveHost: "enclave.example" }))).toBe("certificate");
  });

  it("is refused under development trust", async () => {
    expect(await refusal(verifyEnclave(bundle, { ...prod, trust: "development" }))).toBe("unexpected_document");
  });
});
