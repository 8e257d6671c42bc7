/**
 * !!! DEVELOPMENT ROOT PRIVATE KEY — PUBLIC ON PURPOSE — NEVER A PRODUCTION TRUST ANCHOR !!!
 * Anyone can sign a development attestation with it, so `trust: "production"` refuses those outright.
 * Only the Node-side development enclave and tests import this file; browser code must not.
 */
export const DEVELOPMENT_ROOT_PRIVATE_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "t1G0fply9DbWMQfGr8gHfhdDbZq6zcF_oSUTYvYc-9A",
  y: "s-YvATj_7yEdeceOxMg9NdpToOqZqRWDS6imcgqPQBE",
  d: "F0kKmqdhy7JttvQfuaup0XHMG2WWfkYiuCVuK67z-Ew",
} as const;
