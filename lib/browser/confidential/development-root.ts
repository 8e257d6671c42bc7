/**
 * The pinned trust anchors of the DEVELOPMENT enclave (scripts/enclave-dev.ts, ./dev-enclave.ts).
 *
 * Nothing here proves anything about hardware: the development enclave is an ordinary local process.
 * These constants only let the development path exercise the same checks as production (a signed
 * document, a pinned measurement, an HPKE key bound to the report), so tests and `npm run dev` take the
 * confidential code path. `verifyEnclave(…, { trust: "production" })` refuses every document signed by
 * this root. The matching private key is in ./development-root-private.ts, on purpose, in the open.
 */

/** Format string of the development attestation document (our own; `.invalid` so it can never resolve). */
export const DEVELOPMENT_FORMAT = "https://hush.invalid/predicate/development/v1";

/** JWS `typ` of the signed development report. */
export const DEVELOPMENT_JWS_TYPE = "hush-development-attestation+jwt";

/** Key id of the development root in the JWS header. */
export const DEVELOPMENT_ROOT_KEY_ID = "hush-development-root-1";

/** Public half of the development root (ES256, JWK, RFC 7517). Pinned: a document signed by any other key is refused. */
export const DEVELOPMENT_ROOT_PUBLIC_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "t1G0fply9DbWMQfGr8gHfhdDbZq6zcF_oSUTYvYc-9A",
  y: "s-YvATj_7yEdeceOxMg9NdpToOqZqRWDS6imcgqPQBE",
} as const;

/**
 * The fixed development measurement (one 48-byte register, like SEV-SNP's MEASUREMENT, hex).
 * SHA-384 of "hush development enclave measurement v1"; `--tamper` serves another value.
 */
export const DEVELOPMENT_MEASUREMENT = {
  type: DEVELOPMENT_FORMAT,
  registers: ["f7ac1390360505601cc4dd702914ef9f3f6050af0ddb2801013582d354a9504389b8c0001596c29e5b8da7d18885eeaa"],
} as const;

/**
 * The "source release" the development enclave claims to run. Not a real release: the digest is SHA-256 of
 * "hush development enclave release v1". Shown on the receipt next to the word "development".
 */
export const DEVELOPMENT_RELEASE = {
  repo: "hush/development-enclave",
  digest: "15fd4f35c025510331c0cdf738850fbe9516cce5f86ed5310a370f569953c87b",
} as const;

/** Longest validity a development document may claim (seconds); the enclave signs for 1 hour. */
export const DEVELOPMENT_MAX_VALIDITY_SECONDS = 24 * 60 * 60;
