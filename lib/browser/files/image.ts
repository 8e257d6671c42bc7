import type { StagedImage } from "@/lib/browser/chat/send-turn";
import { IMAGE_MAX_SIDE, IMAGE_OUTPUT_QUALITY, IMAGE_OUTPUT_TYPE } from "@/lib/shared/chat/images";
import { FileError } from "./errors";

/**
 * Scale an image down to IMAGE_MAX_SIDE and re-encode it as JPEG in this browser, so no EXIF or other metadata leaves
 * the device. @throws FileError "too_large", "read_failed"
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

const IMAGE_TARGET_BYTES = 2 * 1024 * 1024;

function dataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new FileError("read_failed"));
    reader.readAsDataURL(blob);
  });
}
