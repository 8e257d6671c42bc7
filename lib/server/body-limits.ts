/**
 * The one ceiling on request bodies. Every route's own limit
 * (the contract's `maxBytes`, CHAT_MAX_REQUEST_BYTES, CONFIDENTIAL_MAX_REQUEST_BYTES) is at most this,
 * and next.config.ts lets a body of BODY_CEILING_BYTES + 1 bytes through Next's proxy: Next copies each
 * body for proxy.ts and, past its limit (10 MB by default), silently cuts it, which turned a valid 12 MB
 * chat into a 400 "not valid JSON". Now a body reaches its route whole, or cut one byte past the
 * ceiling, which is past every route's limit, so the route's own count answers 413 naming its limit.
 * No Node or server-only imports: next.config.ts reads it.
 */

/** Bytes; above every route's body limit (lib/server/config.ts refuses a setting above it). */
export const BODY_CEILING_BYTES = 64 * 1024 * 1024;
