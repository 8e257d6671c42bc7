// Attestation verification (docs/confidential-inference.md): whether the browser may encrypt a turn to an enclave's key.
import { Verifier, measurementFingerprint, type AttestationBundle } from "@tinfoilsh/verifier";
import { X509Certificate } from "@freedomofpress/sigstore-browser";
import { compactVerify, importJWK } from "jose";
import * as z from "zod/mini";
import { AppError, isAppError } from "@/lib/shared/errors";
import {
  DEVELOPMENT_FORMAT,
  DEVELOPMENT_JWS_TYPE,
  DEVELOPMENT_MAX_VALIDITY_SECONDS,
  DEVELOPMENT_MEASUREMENT,
  DEVELOPMENT_RELEASE,
  DEVELOPMENT_ROOT_PUBLIC_JWK,
} from "./development-root";

export type EnclaveTrust = "production" | "development";

export type AttestationRefusalReason =
  | "malformed"
  | "development_document"
  | "unexpected_document"
  | "wrong_host"
  | "hardware"
  | "code"
  | "measurement"
  | "certificate"
  | "signature"
  | "expired"
  | "not_yet_valid"
  | "release"
  | "key_not_bound";

export const ATTESTATION_REFUSED = "upstream:attestation" as const;

export type AttestationRefused = AppError<AttestationRefusalReason> & { readonly reason: AttestationRefusalReason };

function attestationRefused(reason: AttestationRefusalReason, message: string, options?: { cause?: unknown }): AttestationRefused {
  return new AppError(ATTESTATION_REFUSED, message, { reason, cause: options?.cause }) as AttestationRefused;
}

export function isAttestationRefused(error: unknown): error is AttestationRefused {
  return isAppError(error, ATTESTATION_REFUSED) && error.reason !== undefined;
}

export interface EnclaveMeasurement {
  type: string;
  registers: string[];
}

export interface VerifiedEnclave {
  trust: EnclaveTrust;
  enclaveHost: string;
  hardware: string;
  measurement: EnclaveMeasurement;
  codeFingerprint: string;
  sourceRelease: { repo: string; digest: string };
  hpkePublicKey: string;
  verifiedAt: Date;
  expiresAt: Date;
}

export interface VerifyEnclaveOptions {
  trust: EnclaveTrust;
  enclaveHost: string;
  configRepo: string;
  now?: Date;
}

export const PRODUCTION_CACHE_SECONDS = 60 * 60;

const CLOCK_SKEW_SECONDS = 60;

const HEX64 = /^[0-9a-f]{64}$/;

const hex64 = () => z.string().check(z.regex(HEX64));
const nonEmpty = () => z.string().check(z.minLength(1));

const productionBundleSchema = z.object({
  domain: z.string().check(z.minLength(1), z.maxLength(253)),
  enclaveAttestationReport: z.object({ format: nonEmpty(), body: nonEmpty() }),
  digest: hex64(),
  sigstoreBundle: z.custom<object>((v) => typeof v === "object" && v !== null),
  vcek: nonEmpty(),
  enclaveCert: nonEmpty(),
});

const developmentDocumentSchema = z.strictObject({
  format: z.literal(DEVELOPMENT_FORMAT),
  body: z.string().check(z.minLength(1), z.maxLength(16_384)),
  hpkePublicKey: hex64(),
});

export type DevelopmentAttestationDocument = z.infer<typeof developmentDocumentSchema>;

const developmentReportSchema = z.strictObject({
  iss: z.literal("hush-development-enclave"),
  iat: z.int(),
  exp: z.int(),
  domain: nonEmpty(),
  measurement: z.strictObject({ type: z.string(), registers: z.array(z.string()) }),
  report_data: hex64(),
  release: z.strictObject({ repo: z.string(), digest: z.string() }),
});

export type DevelopmentReport = z.infer<typeof developmentReportSchema>;

/** @throws AttestationRefused on any failure; never returns a partial result */
export async function verifyEnclave(document: unknown, options: VerifyEnclaveOptions): Promise<VerifiedEnclave> {
  const now = options.now ?? new Date();
  const isDevelopmentDocument =
    typeof document === "object" && document !== null && (document as { format?: unknown }).format === DEVELOPMENT_FORMAT;
  if (options.trust === "production") {
    if (isDevelopmentDocument) {
      throw attestationRefused(
        "development_document",
        "This is a development enclave, signed by a key published with Hush's source code; it is not accepted in production.",
      );
    }
    return verifyProduction(document, options, now);
  }
  if (options.trust === "development") {
    if (!isDevelopmentDocument) {
      throw attestationRefused("unexpected_document", "Development trust only accepts the development enclave's document.");
    }
    return verifyDevelopment(document, options, now);
  }
  throw attestationRefused("malformed", "Unknown trust setting.");
}

async function verifyProduction(document: unknown, options: VerifyEnclaveOptions, now: Date): Promise<VerifiedEnclave> {
  const parsed = productionBundleSchema.safeParse(document);
  if (!parsed.success) throw attestationRefused("malformed", "The attestation bundle is incomplete or malformed.");
  const bundle = parsed.data as AttestationBundle;
  if (bundle.domain !== options.enclaveHost) {
    throw attestationRefused("wrong_host", `The attestation is for ${bundle.domain}, not for the configured enclave ${options.enclaveHost}.`);
  }

  // The verifier checks AMD's ARK/ASK/VCEK validity against the system clock, not against `now`.
  const verifier = new Verifier({ configRepo: options.configRepo });
  let attested;
  try {
    attested = await verifier.verifyBundle(bundle);
  } catch (error) {
    const steps = verifier.getVerificationDocument()?.steps;
    if (steps?.verifyEnclave.status === "failed") {
      throw attestationRefused("hardware", "The hardware attestation report did not verify against AMD's signing chain.", { cause: error });
    }
    if (steps?.verifyCode.status === "failed") {
      throw attestationRefused("code", `The signed source release of ${options.configRepo} did not verify.`, { cause: error });
    }
    if (steps?.compareMeasurements.status === "failed") {
      throw attestationRefused("measurement", "The enclave is running code different from the signed source release.", { cause: error });
    }
    throw attestationRefused("certificate", "The enclave's certificate does not bind the attested encryption key.", { cause: error });
  }
  const report = verifier.getVerificationDocument();
  if (!report?.securityVerified || !attested.hpkePublicKey || !HEX64.test(attested.hpkePublicKey)) {
    throw attestationRefused("certificate", "The enclave did not attest an encryption key.");
  }

  // The SEV-SNP report has no timestamp: the certificate's validity bounds how long a replayed bundle passes.
  let notBefore: Date;
  let notAfter: Date;
  try {
    const cert = X509Certificate.parse(bundle.enclaveCert);
    notBefore = cert.notBefore;
    notAfter = cert.notAfter;
  } catch (error) {
    throw attestationRefused("certificate", "The enclave's certificate could not be read.", { cause: error });
  }
  if (now < notBefore) throw attestationRefused("not_yet_valid", "The enclave's certificate is not valid yet.");
  if (now >= notAfter) throw attestationRefused("expired", "The enclave's certificate has expired.");

  return {
    trust: "production",
    enclaveHost: bundle.domain,
    hardware: hardwareName(attested.measurement.type),
    measurement: { type: attested.measurement.type, registers: [...attested.measurement.registers] },
    codeFingerprint: report.codeFingerprint,
    sourceRelease: { repo: options.configRepo, digest: report.releaseDigest },
    hpkePublicKey: attested.hpkePublicKey,
    verifiedAt: now,
    expiresAt: new Date(Math.min(now.getTime() + PRODUCTION_CACHE_SECONDS * 1000, notAfter.getTime())),
  };
}

function hardwareName(measurementType: string): string {
  if (measurementType === "https://tinfoil.sh/predicate/sev-snp-guest/v2") return "AMD SEV-SNP confidential VM";
  if (measurementType === "https://tinfoil.sh/predicate/snp-tdx-multiplatform/v1") return "AMD SEV-SNP confidential VM";
  return measurementType;
}

let developmentRootKey: Promise<CryptoKey | Uint8Array> | undefined;

async function verifyDevelopment(document: unknown, options: VerifyEnclaveOptions, now: Date): Promise<VerifiedEnclave> {
  const parsed = developmentDocumentSchema.safeParse(document);
  if (!parsed.success) throw attestationRefused("malformed", "The development attestation document is malformed.");
  const { body, hpkePublicKey } = parsed.data;

  developmentRootKey ??= importJWK({ ...DEVELOPMENT_ROOT_PUBLIC_JWK }, "ES256");
  let payloadBytes: Uint8Array;
  try {
    const verified = await compactVerify(body, await developmentRootKey, { algorithms: ["ES256"] });
    if (verified.protectedHeader.typ !== DEVELOPMENT_JWS_TYPE) throw new Error("unexpected typ");
    payloadBytes = verified.payload;
  } catch (error) {
    throw attestationRefused("signature", "The development attestation is not signed by Hush's development root.", { cause: error });
  }

  let report: DevelopmentReport;
  try {
    report = developmentReportSchema.parse(JSON.parse(new TextDecoder().decode(payloadBytes)));
  } catch (error) {
    throw attestationRefused("malformed", "The development attestation report is malformed.", { cause: error });
  }

  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (report.exp - report.iat > DEVELOPMENT_MAX_VALIDITY_SECONDS || report.exp <= report.iat) {
    throw attestationRefused("malformed", "The development attestation claims an implausible validity period.");
  }
  if (report.iat > nowSeconds + CLOCK_SKEW_SECONDS) throw attestationRefused("not_yet_valid", "The development attestation is dated in the future.");
  if (report.exp <= nowSeconds) throw attestationRefused("expired", "The development attestation has expired.");
  if (report.domain !== options.enclaveHost) {
    throw attestationRefused("wrong_host", `The attestation is for ${report.domain}, not for the configured enclave ${options.enclaveHost}.`);
  }
  if (!sameMeasurement(report.measurement, DEVELOPMENT_MEASUREMENT)) {
    throw attestationRefused("measurement", "The development enclave reports a measurement different from the pinned development measurement.");
  }
  if (report.release.repo !== DEVELOPMENT_RELEASE.repo || report.release.digest !== DEVELOPMENT_RELEASE.digest) {
    throw attestationRefused("release", "The development enclave names a source release other than the pinned one.");
  }
  if ((await sha256Hex(hexToBytes(hpkePublicKey))) !== report.report_data) {
    throw attestationRefused("key_not_bound", "The presented encryption key is not the one bound to the attestation report.");
  }

  return {
    trust: "development",
    enclaveHost: report.domain,
    hardware: "Development enclave: an ordinary local process, no hardware isolation",
    measurement: { type: report.measurement.type, registers: [...report.measurement.registers] },
    codeFingerprint: await measurementFingerprint(report.measurement),
    sourceRelease: { ...report.release },
    hpkePublicKey,
    verifiedAt: now,
    expiresAt: new Date(report.exp * 1000),
  };
}

function sameMeasurement(a: EnclaveMeasurement, b: { type: string; registers: readonly string[] }): boolean {
  return a.type === b.type && a.registers.length === b.registers.length && a.registers.every((r, i) => r === b.registers[i]);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export interface VerificationCache {
  get(hpkePublicKey: string, now?: Date): VerifiedEnclave | undefined;
  latest(trust: EnclaveTrust, enclaveHost: string, now?: Date): VerifiedEnclave | undefined;
  /** Verify `document`, or return the cached result while unexpired. @throws AttestationRefused */
  verify(document: unknown, options: VerifyEnclaveOptions): Promise<VerifiedEnclave>;
  clear(hpkePublicKey?: string): void;
}

export function createVerificationCache(): VerificationCache {
  const byKey = new Map<string, VerifiedEnclave>();
  const byDocument = new Map<string, string>();
  const live = (v: VerifiedEnclave | undefined, now: Date) => (v && v.expiresAt > now ? v : undefined);

  return {
    get(hpkePublicKey, now = new Date()) {
      return live(byKey.get(hpkePublicKey), now);
    },
    latest(trust, enclaveHost, now = new Date()) {
      let best: VerifiedEnclave | undefined;
      for (const v of byKey.values()) {
        if (v.trust === trust && v.enclaveHost === enclaveHost && live(v, now) && (!best || v.verifiedAt > best.verifiedAt)) best = v;
      }
      return best;
    },
    async verify(document, options) {
      const now = options.now ?? new Date();
      const digest = await sha256Hex(
        new TextEncoder().encode(JSON.stringify([options.trust, options.enclaveHost, options.configRepo, document])),
      );
      const key = byDocument.get(digest);
      const cached = key === undefined ? undefined : live(byKey.get(key), now);
      if (cached) return cached;
      const verified = await verifyEnclave(document, { ...options, now });
      byKey.set(verified.hpkePublicKey, verified);
      byDocument.set(digest, verified.hpkePublicKey);
      return verified;
    },
    clear(hpkePublicKey) {
      if (hpkePublicKey === undefined) {
        byKey.clear();
        byDocument.clear();
        return;
      }
      byKey.delete(hpkePublicKey);
      for (const [digest, key] of byDocument) if (key === hpkePublicKey) byDocument.delete(digest);
    },
  };
}

export const enclaveVerificationCache: VerificationCache = createVerificationCache();
