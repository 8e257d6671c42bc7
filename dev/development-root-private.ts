/**
 * !!! DEVELOPMENT ROOT PRIVATE KEY — PUBLIC ON PURPOSE — NEVER A PRODUCTION TRUST ANCHOR !!!
 *
 * This is the private half of the development signing root pinned in ./development-root.ts. It is in the
 * repository so that anyone can run the development enclave (`npm run enclave:dev`) and the tests; which
 * also means ANYONE can sign a "development attestation" with it. That is exactly why
 * `verifyEnclave(…, { trust: "production" })` refuses development documents outright, and why every screen
 * showing a development verification must say "development".
 *
 * Only the Node-side development enclave (./dev-enclave.ts) and tests import this file; browser code must not.
 */
export const DEVELOPMENT_ROOT_PRIVATE_JWK = {
  kty: "EC",
  crv: "P-256",
  x: "t1G0fply9DbWMQfGr8gHfhdDbZq6zcF_oSUTYvYc-9A",
  y: "s-YvATj_7yEdeceOxMg9NdpToOqZqRWDS6imcgqPQBE",
  d: "F0kKmqdhy7JttvQfuaup0XHMG2WWfkYiuCVuK67z-Ew",
} as const;
