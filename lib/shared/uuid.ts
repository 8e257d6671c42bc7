/**
 * UUIDs in their canonical text form (RFC 9562 docs/product.md §4: 8-4-4-4-12 hex digits), the one pattern for chat,
 * method and request ids, browser and server. Chat ids are stored lowercase, and the browser binds the
 * lowercase form into each ciphertext's associated data (lib/browser/vault/seal.ts), so stored ids must match
 * LOWERCASE_UUID; ids from a URL or a body may come in any case and are lowercased first.
 * New ids come from `crypto.randomUUID()` (Web Crypto, in browsers and Node alike).
 */

const HEX_GROUPS = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A UUID in any case. */
export const UUID = new RegExp(`^${HEX_GROUPS}$`, "i");

/** A UUID as stored: lowercase. */
export const LOWERCASE_UUID = new RegExp(`^${HEX_GROUPS}$`);

/** The UUID as stored (lowercase), or null when `value` is no UUID. */
export function canonicalUuid(value: unknown): string | null {
  return typeof value === "string" && UUID.test(value) ? value.toLowerCase() : null;
}
