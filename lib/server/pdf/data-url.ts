import { hasPdfMagic } from "@/lib/shared/pdf/extract-text";

/** A base64 data URL's payload, sized and its head decoded without decoding the rest. */
export interface Base64Payload {
  /** The payload after the comma: base64 text, decoded in the PDF worker (lib/server/pdf/pdf.worker.ts). */
  base64: string;
  /** Decoded size in bytes, from the payload's length. */
  bytes: number;
  /** True when the decoded head carries %PDF- within its first 1024 bytes. */
  pdfHeader: boolean;
}

// 1,368 base64 characters are 1,026 bytes: the header window (1024 bytes) whole.
const HEAD_CHARS = 1368;

/**
 * Read a data URL as FileReader.readAsDataURL writes it (docs/product.md §3: an attached file's content is a data
 * URL; RFC 2397): `data:<type>[;params];base64,<payload>`. Only base64 payloads are accepted; the payload is not
 * decoded here (that is the PDF worker's work, off the request thread), only sized and its head checked.
 * @returns null when `content` is no base64 data URL
 */
export function readBase64DataUrl(content: string): Base64Payload | null {
  if (!/^data:/i.test(content)) return null;
  const comma = content.indexOf(",");
  if (comma < 0 || comma > 256) return null;
  const params = content.slice(5, comma).split(";");
  if (params.length < 2 || params.at(-1)?.trim().toLowerCase() !== "base64") return null;
  const base64 = content.slice(comma + 1);
  const head = base64.slice(0, HEAD_CHARS);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(head)) return null;
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return {
    base64,
    bytes: Math.floor((base64.length * 3) / 4) - padding,
    pdfHeader: hasPdfMagic(new Uint8Array(Buffer.from(head, "base64"))),
  };
}
