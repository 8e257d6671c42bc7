/** Byte counts for people: limits named in error messages (lib/server/http.ts 413s, lib/shared/pdf/errors.ts). */

/** "16 MB", "2.5 MB" (binary megabytes, at most one decimal); below 1 MB "20 KB", below 1 KB "200 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** Standard base64 of bytes (the API's encoding of ciphertext). */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The engine's own decoder where there is one (Chromium 140+, Firefox 133+, Safari 18.2+): same bytes as atob's. */
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;

/** Bytes of standard base64. @throws Error on malformed input. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  // Search decodes every message ciphertext; the native decoder skips a per-byte JS loop.
  if (nativeFromBase64) return nativeFromBase64.call(Uint8Array, text);
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
