import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Helpers for specs that check a secret never reaches the server readable: in a request, an API answer or a file
 * of the data folder.
 */

/** Every readable form of `secret`: plain, hex, base64 (three alignments). */
export function forms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const out = [secret, bytes.toString("hex")];
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad, 0x20), bytes]).toString("base64");
    out.push(b64.slice(Math.ceil((pad * 4) / 3) + 1, Math.floor(((pad + bytes.length) * 4) / 3) - 1));
  }
  return out;
}

/** The first of `secret`'s forms() found in `haystack` (bytes read as Latin-1), or null when none is. */
export const leaks = (haystack: Buffer | string, secret: string) => {
  const text = typeof haystack === "string" ? haystack : haystack.toString("latin1");
  return forms(secret).find((f) => text.includes(f)) ?? null;
};

/** The paths of every file below `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
