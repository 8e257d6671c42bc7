import type { StagedImage } from "@/lib/browser/chat/send-turn";
import { IMAGE_MAX_SIDE, IMAGE_OUTPUT_QUALITY, IMAGE_OUTPUT_TYPE } from "@/lib/shared/chat/images";
import { FileError } from "./errors";

/**
 * Prepare an image for a model that reads images, in this browser: decode it (EXIF
 * orientation applied), scale it down to at most IMAGE_MAX_SIDE px a side, and re-encode it as JPEG on a
 * canvas. Re-encoding keeps only pixels: EXIF (camera, GPS position, time) and every other metadata
 * block of the original never leave the device. Transparent areas become white (JPEG has no alpha).
 * @param maxInputBytes largest file read (PDF_MAX_BYTES, the limit every attachment shares)
 * @param maxOutputBytes the encoded image's bound; quality steps down once before giving up
 * @throws FileError "too_large" (input or output), "read_failed" (not a decodable image)
 */
export async function prepareImage(file: File, maxInputBytes: number, maxOutputBytes = IMAGE_TARGET_BYTES): Promise<StagedImage> {
  if (file.size > maxInputBytes) throw new FileError("too_large", { maxBytes: maxInputBytes });
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new FileError("read_failed");
  }
  try {
    const scale = Math.min(1, IMAGE_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext("2d");
    if (!context) throw new FileError("read_failed");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, width, height);
    for (const quality of [IMAGE_OUTPUT_QUALITY, 0.7]) {
      const blob = await canvas.convertToBlob({ type: IMAGE_OUTPUT_TYPE, quality });
      if (blob.size <= maxOutputBytes) return { url: await dataUrl(blob), width, height };
    }
    throw new FileError("too_large", { maxBytes: maxOutputBytes });
  } finally {
    bitmap.close();
  }
}

/** The encoded image's bound: well under the server's default CHAT_MAX_IMAGE_BYTES (3 MiB) and Groq's 4 MB. */
export const IMAGE_TARGET_BYTES = 2 * 1024 * 1024;

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new FileError("read_failed"));
    reader.readAsDataURL(blob);
  });
}
