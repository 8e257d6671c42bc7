// The one ceiling on request bodies, above every route's limit: Next silently cuts a body past its own limit, so
// next.config.ts lets BODY_CEILING_BYTES + 1 through and each route's count answers 413. Read by next.config.ts.

/** Bytes; above every route's body limit (lib/server/config.ts refuses a setting above it). */
export const BODY_CEILING_BYTES = 64 * 1024 * 1024;
