import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";

/**
 * A search of disks and logs for something a user said (docs/issues.md #52, the voice canary): every readable
 * encoding of a text, slices of a recording's bytes, over whole directory trees read as raw bytes.
 */

/** One thing to look for: its name (for the failure message) and its bytes. */
export interface Needle {
  name: string;
  bytes: Buffer;
}

/** A base64 rendering of `bytes` at each of the three alignments, cut to the characters that depend on them only. */
function base64Forms(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad, 0x20), bytes]).toString("base64");
    const cut = b64.slice(Math.ceil((pad * 4) / 3) + 1, Math.floor(((pad + bytes.length) * 4) / 3) - 1);
    out.push(cut, cut.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...new Set(out)];
}

/** `text` as UTF-8, UTF-16 (both byte orders), hex (both cases) and base64 (standard and URL-safe, each alignment). */
export function textNeedles(label: string, text: string): Needle[] {
  const utf8 = Buffer.from(text, "utf8");
  const le = Buffer.from(text, "utf16le");
  const be = Buffer.from(le).swap16();
  return [
    { name: `${label} (UTF-8)`, bytes: utf8 },
    { name: `${label} (UTF-16LE)`, bytes: le },
    { name: `${label} (UTF-16BE)`, bytes: be },
    { name: `${label} (hex)`, bytes: Buffer.from(utf8.toString("hex")) },
    { name: `${label} (HEX)`, bytes: Buffer.from(utf8.toString("hex").toUpperCase()) },
    ...base64Forms(utf8).map((b64, i) => ({ name: `${label} (base64 #${i})`, bytes: Buffer.from(b64) })),
  ];
}

/** Raw bytes as they are and in base64, for slices of a recording. */
export function byteNeedles(label: string, bytes: Buffer): Needle[] {
  return [{ name: `${label} (raw)`, bytes }, ...base64Forms(bytes).map((b64, i) => ({ name: `${label} (base64 #${i})`, bytes: Buffer.from(b64) }))];
}

/**
 * `count` slices of `length` bytes spread over the middle of `bytes` (from 20 % to 80 %), skipping slices of one
 * repeated byte (silence, padding), which would match unrelated files.
 */
export function slicesOf(bytes: Buffer, count: number, length: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < count * 4 && out.length < count; i++) {
    const at = Math.floor(bytes.length * (0.2 + (0.6 * i) / (count * 4)));
    const slice = bytes.subarray(at, at + length);
    if (slice.length === length && new Set(slice).size > length / 4) out.push(Buffer.from(slice));
  }
  return out;
}

/** Every regular file below `dir` (recursively; none when it is missing), skipping paths `skip` accepts. */
export function filesBelow(dir: string, skip: (file: string) => boolean = () => false): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const full = path.join(dir, name);
    if (skip(full)) return [];
    let stat;
    try {
      stat = statSync(full, { throwIfNoEntry: false });
    } catch {
      return [];
    }
    if (!stat) return [];
    if (stat.isDirectory()) return filesBelow(full, skip);
    return stat.isFile() ? [full] : [];
  });
}

/** Files below `dir` modified at or after `sinceMs` (epoch ms). */
export function filesChangedSince(dir: string, sinceMs: number, skip?: (file: string) => boolean): string[] {
  return filesBelow(dir, skip).filter((file) => {
    try {
      return statSync(file).mtimeMs >= sinceMs - 1000;
    } catch {
      return false;
    }
  });
}

const CHUNK = 8 * 1024 * 1024;

/**
 * The needles found in `file`, read in overlapping 8 MB chunks (so a needle across a boundary is found); a file that
 * vanished or cannot be read (another user's) counts as holding none, and is reported in `unreadable`.
 */
export function needlesIn(file: string, needles: Needle[], unreadable?: string[]): string[] {
  const longest = Math.max(...needles.map((n) => n.bytes.length));
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    unreadable?.push(file);
    return [];
  }
  const found = new Set<string>();
  try {
    const buffer = Buffer.alloc(CHUNK + longest);
    let carried = 0;
    for (;;) {
      const read = readSync(fd, buffer, carried, CHUNK, null);
      const filled = carried + read;
      const view = buffer.subarray(0, filled);
      for (const n of needles) if (view.includes(n.bytes)) found.add(n.name);
      if (read === 0) break;
      carried = Math.min(longest - 1, filled);
      buffer.copy(buffer, 0, filled - carried, filled);
    }
  } catch {
    unreadable?.push(file);
  } finally {
    closeSync(fd);
  }
  return [...found];
}

/** `{ file, found }` for every file of `files` holding one of `needles` (an empty list: nothing leaked). */
export function scanFiles(files: string[], needles: Needle[], unreadable?: string[]): { file: string; found: string[] }[] {
  return files.map((file) => ({ file, found: needlesIn(file, needles, unreadable) })).filter((hit) => hit.found.length > 0);
}
