/**
 * What a saved chat holds in the clear, inside the browser only, without the crypto of ./seal.ts: the
 * components that show or send a chat need these at first paint, the sealing code only once history is on
 * (docs/issues.md #42: /chat's first load).
 */

/**
 * Longest image data URL sealed with a saved chat, in characters: the sealed attachment must stay in the
 * 1 MiB padding bucket (lib/shared/vault/padding.ts), since a field's ciphertext is at most 2,000,000 base64
 * characters (lib/shared/vault/schemas.ts). A larger image is sent but kept by name only.
 */
export const SAVED_IMAGE_MAX_CHARS = 1_000_000;

/** The display name of a chat: its first user message on one line, cut at 60 characters (docs/product.md §3). */
export function displayNameFrom(messages: readonly { role: string; content: string }[]): string | null {
  const first = messages.find((m) => m.role === "user")?.content.replace(/\s+/g, " ").trim();
  if (!first) return null;
  return first.length > 60 ? `${first.slice(0, 59).trimEnd()}…` : first;
}
