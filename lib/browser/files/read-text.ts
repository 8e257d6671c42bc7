import { FileError } from "./errors";

export interface TextLimits {
  maxBytes: number;
  maxChars: number;
}

export interface FileText {
  text: string;
  truncated: boolean;
}

/** Bytes looked at for NUL bytes, the sign of a binary file (as git and grep decide). */
const SNIFF_BYTES = 8000;

/** Decode UTF-8 text and keep the first `maxChars` characters. @throws FileError not_text, empty */
export function decodeText(bytes: Uint8Array, maxChars: number): FileText {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) throw new FileError("not_text");
  return keepChars(new TextDecoder("utf-8").decode(bytes), maxChars);
}

export function keepChars(text: string, maxChars: number): FileText {
  if (text.trim() === "") throw new FileError("empty");
  return text.length > maxChars ? { text: text.slice(0, maxChars), truncated: true } : { text, truncated: false };
}

/** @throws FileError too_large | not_text | empty | read_failed */
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
