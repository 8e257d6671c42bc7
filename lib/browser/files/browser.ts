import "client-only";
import type { StagedFile } from "@/lib/browser/chat/send-turn";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { extractPdfInBrowser, truncationNotice, type PdfLimits } from "@/lib/browser/pdf";
import { FileError } from "./errors";
import { fileKind } from "./kinds";

/**
 * Read an attachment in the browser into the text the next turn sends (an image: a re-encoded JPEG); only that leaves
 * this device. @throws FileError or PdfError; AbortError on `signal`
 */
export async function readAttachment(file: File, limits: PdfLimits, model: Pick<ModelChoice, "title" | "vision"> | undefined, signal?: AbortSignal): Promise<StagedFile> {
  const kind = fileKind(file);
  const notice = (what: string) => `This ${what} is long: only its first ${limits.maxChars.toLocaleString("en-US")} characters were read.`;
  switch (kind) {
    case "pdf": {
      const result = await extractPdfInBrowser(file, limits, signal);
      return { name: file.name, text: result.text, truncated: result.truncated, notice: truncationNotice(result, limits.maxChars) };
    }
    case "text": {
      const { readTextFile } = await import("./read-text");
      const result = await readTextFile(file, limits);
      return { name: file.name, text: result.text, truncated: result.truncated, notice: result.truncated ? notice("file") : null };
    }
    case "docx": {
      const { extractDocxInBrowser } = await import("./docx");
      const result = await extractDocxInBrowser(file, limits, signal);
      return { name: file.name, text: result.text, truncated: result.truncated, notice: result.truncated ? notice("document") : null };
    }
    case "image": {
      if (!model?.vision) throw new FileError("image_not_supported", { modelTitle: model?.title });
      const { prepareImage } = await import("./image");
      const image = await prepareImage(file, limits.maxBytes);
      return { name: file.name, text: "", truncated: false, notice: null, image };
    }
    default:
      throw new FileError("unsupported");
  }
}
