// What a saved chat holds in clear, without the crypto of ./seal.ts, which the components need only once history is on.

/** Longest image data URL sealed with a saved chat, so the attachment stays in the 1 MiB bucket; a larger one is kept by name only. */
export const SAVED_IMAGE_MAX_CHARS = 1_000_000;

/** The display name of a chat: its first user message on one line, cut at 60 characters (docs/product.md §3). */
export function displayNameFrom(messages: readonly { role: string; content: string }[]): string | null {
  const first = messages.find((m) => m.role === "user")?.content.replace(/\s+/g, " ").trim();
  if (!first) return null;
  return first.length > 60 ? `${first.slice(0, 59).trimEnd()}…` : first;
}
