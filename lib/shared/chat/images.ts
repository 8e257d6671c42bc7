// Images in a chat turn, as OpenAI content parts with base64 data URLs only: the server never fetches a URL for the
// user. Dependency-free: the request schema, the context budget, the dev responder and the browser share these rules.

export type ImageMimeType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** Tokens one image counts in the context budget: Llama 4's image processor, at most 17 tiles of 144, rounded up. */
export const IMAGE_TOKENS = 2_600;

export const IMAGE_MAX_SIDE = 1_568;

/** What the browser produces: JPEG, re-encoded, so no EXIF survives. */
export const IMAGE_OUTPUT_TYPE = "image/jpeg";
export const IMAGE_OUTPUT_QUALITY = 0.85;

/** The abuse bounds on images in one chat request (CHAT_MAX_IMAGES_PER_MESSAGE, CHAT_MAX_IMAGES, CHAT_MAX_IMAGE_BYTES). */
export interface ImageLimits {
  maxImagesPerMessage: number;
  maxImagesPerRequest: number;
  maxImageBytes: number;
}

export interface MessageImage {
  url: string;
}

export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif));base64,([A-Za-z0-9+/]*={0,2})$/;

/** The MIME type and decoded size of an image data URL, or null unless a base64 data URL of an allowed type. */
export function parseImageDataUrl(url: string): { type: ImageMimeType; bytes: number; base64: string } | null {
  const match = DATA_URL.exec(url);
  if (!match || match[2]!.length % 4 !== 0) return null;
  const base64 = match[2]!;
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return { type: match[1] as ImageMimeType, bytes: (base64.length / 4) * 3 - padding, base64 };
}

export function contentText(content: string | readonly ContentPart[]): string {
  if (typeof content === "string") return content;
  return content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n\n");
}

export function contentImages(content: string | readonly ContentPart[]): MessageImage[] {
  if (typeof content === "string") return [];
  return content.flatMap((p) => (p.type === "image_url" ? [{ url: p.image_url.url }] : []));
}

export function contentParts(text: string, images: readonly MessageImage[]): ContentPart[] {
  return [{ type: "text", text }, ...images.map((i) => ({ type: "image_url" as const, image_url: { url: i.url } }))];
}

/** Width and height of a PNG, JPEG, GIF or WebP image from its first bytes, or null when unknown. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = bytes;
  const u16be = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const u16le = (i: number) => b[i]! | (b[i + 1]! << 8);
  const u32be = (i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { width: u32be(16), height: u32be(20) };
  if (b.length >= 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return { width: u16le(6), height: u16le(8) };
  if (b.length >= 30 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45) {
    const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
    if (chunk === "VP8X") return { width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
    if (chunk === "VP8 ") return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === "VP8L") {
      const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: u16be(i + 7), height: u16be(i + 5) };
      }
      i += 2 + u16be(i + 2);
    }
  }
  return null;
}

function base64Bytes(base64: string): Uint8Array {
  const raw = atob(base64);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export function describeImages(images: readonly MessageImage[]): string {
  const sizes = images.map((i) => {
    const parsed = parseImageDataUrl(i.url);
    const size = parsed ? imageSize(base64Bytes(parsed.base64.slice(0, 64 * 1024 - ((64 * 1024) % 4)))) : null;
    return size ? `${size.width}x${size.height}` : "unknown size";
  });
  return `${images.length} image${images.length === 1 ? "" : "s"} (${sizes.join(", ")})`;
}
