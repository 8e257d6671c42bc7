/** "16 MB", "2.5 MB" (binary megabytes, at most one decimal); below 1 MB "20 KB", below 1 KB "200 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

const nativeFromBase64 = (Uint8Array as typeof Uint8Array & { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;

/** @throws Error on malformed input */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  if (nativeFromBase64) return nativeFromBase64.call(Uint8Array, text);
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
