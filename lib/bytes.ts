/** Byte counts for people: limits named in error messages (lib/http.ts 413s, lib/pdf/errors.ts). */

/** "16 MB", "2.5 MB" (binary megabytes, at most one decimal); below 1 MB "20 KB", below 1 KB "200 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
