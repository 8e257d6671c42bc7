import { PdfError } from "./errors";

const MIME_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decode a base64 data URL (RFC 2397), as FileReader.readAsDataURL writes it (docs/product.md §3: attached file
 * content is a data URL). Only base64 payloads are accepted; the media type is lower-cased without
 * parameters ("" means text/plain per RFC 2397).
 * @param options.maxBytes reject before decoding when the payload would exceed this many bytes
 * @throws PdfError "invalid_data_url" when malformed, "too_large" when over maxBytes
 */
export function decodeDataUrl(content: string, options: { maxBytes?: number } = {}): { mimeType: string; bytes: Buffer } {
  if (typeof content !== "string" || !/^data:/i.test(content)) throw new PdfError("invalid_data_url");
  const comma = content.indexOf(",");
  if (comma < 0) throw new PdfError("invalid_data_url");
  const params = content.slice(5, comma).split(";");
  if (params.length < 2 || params.at(-1)?.trim().toLowerCase() !== "base64") throw new PdfError("invalid_data_url");
  const type = (params[0] ?? "").trim().toLowerCase();
  if (type !== "" && !MIME_TYPE.test(type)) throw new PdfError("invalid_data_url");

  const data = content.slice(comma + 1);
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw new PdfError("invalid_data_url");
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  const size = (data.length / 4) * 3 - padding;
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    throw new PdfError("too_large", { maxBytes: options.maxBytes });
  }
  return { mimeType: type || "text/plain", bytes: Buffer.from(data, "base64") };
}
