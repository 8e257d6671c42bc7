// The pinned trust anchors of the DEVELOPMENT enclave: they prove nothing about hardware, only let development take the
// confidential code path; production trust refuses this root. Its private key is in ./development-root-private.ts, in the open.

export const DEVELOPMENT_FORMAT = "https://hush.invalid/predicate/development/v1";

export const DEVELOPMENT_JWS_TYPE = "hush-development-attestation+jwt";

export const DEVELOPMENT_ROOT_KEY_ID = "hush-development-root-1";

export const DEVELOPMENT_ROOT_PUBLIC_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "t1G0fply9DbWMQfGr8gHfhdDbZq6zcF_oSUTYvYc-9A",
  y: "s-YvATj_7yEdeceOxMg9NdpToOqZqRWDS6imcgqPQBE",
} as const;

export const DEVELOPMENT_MEASUREMENT = {
  type: DEVELOPMENT_FORMAT,
  registers: ["f7ac1390360505601cc4dd702914ef9f3f6050af0ddb2801013582d354a9504389b8c0001596c29e5b8da7d18885eeaa"],
} as const;

export const DEVELOPMENT_RELEASE = {
  repo: "hush/development-enclave",
  digest: "15fd4f35c025510331c0cdf738850fbe9516cce5f86ed5310a370f569953c87b",
} as const;

export const DEVELOPMENT_MAX_VALIDITY_SECONDS = 24 * 60 * 60;
