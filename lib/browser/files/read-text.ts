import { FileError } from "./errors";

/** Limits of reading one text file: the PDF limits (PDF_MAX_BYTES, PDF_MAX_TEXT_CHARS). */
export interface TextLimits {
  maxBytes: number;
  maxChars: number;
}

export interface FileText {
  text: string;
  /** Only the first `maxChars` characters were kept. */
  truncated: boolean;
}

/** Bytes looked at for NUL bytes, the sign of a binary file (as git and grep decide). */
const SNIFF_BYTES = 8000;

/**
 * Decode text bytes as UTF-8 (a BOM is dropped; invalid sequences become U+FFFD) and keep the first
 * `maxChars` characters.
 * @throws FileError not_text (a NUL byte near the start), empty (only whitespace).
 */
export function decodeText(bytes: Uint8Array, maxChars: number): FileText {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) throw new FileError("not_text");
  return keepChars(new TextDecoder("utf-8").decode(bytes), maxChars);
}

/** The first `maxChars` characters of `text`. @throws FileError empty (only whitespace). */
export function keepChars(text: string, maxChars: number): FileText {
  if (text.trim() === "") throw new FileError("empty");
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
}

/**
 * Read a text or source file in the browser. The size is checked before a byte is read.
 * @throws FileError too_large | not_text | empty | read_failed.
 */
export async function readTextFile(file: File, limits: TextLimits): Promise<FileText> {
  if (file.size > limits.maxBytes) throw new FileError("too_large", { maxBytes: limits.maxBytes });
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    throw new FileError("read_failed");
  }
  return decodeText(bytes, limits.maxChars);
}
