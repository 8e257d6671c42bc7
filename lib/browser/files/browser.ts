import "client-only";
import type { StagedFile } from "@/lib/browser/chat/send-turn";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { extractPdfInBrowser, truncationNotice, type PdfLimits } from "@/lib/browser/pdf";
import { FileError } from "./errors";
import { fileKind } from "./kinds";

/**
 * Read an attachment in the browser, whatever its kind, into the text
 * the next turn sends (or, for an image and a model that reads images, a resized JPEG without metadata,
 * ./image.ts, sent on the user message as an image part): PDFs as before (lib/browser/pdf), text and source files here, Word documents in a
 * worker (./docx, loaded on first use). Only the extracted text ever leaves this device, as the turn's
 * `document` (to Hush's server for a standard model, encrypted to the enclave for a confidential one).
 * All kinds share the PDF limits: PDF_MAX_BYTES, PDF_MAX_TEXT_CHARS, PDF_PARSE_TIMEOUT_MS and
 * PDF_MAX_INFLATED_BYTES.
 * @throws FileError (unsupported kinds with docs/product.md §5's sentence; images for a model without
 *   `vision`) or PdfError; DOMException "AbortError" when `signal` aborts.
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
      // Only a model that reads images (lib/shared/llm/models.ts `vision`, LLM_VISION_MODELS) gets one;
      // for the others, say so rather than send nothing.
      if (!model?.vision) throw new FileError("image_not_supported", { modelTitle: model?.title });
      const { prepareImage } = await import("./image");
      const image = await prepareImage(file, limits.maxBytes);
      return { name: file.name, text: "", truncated: false, notice: null, image };
    }
    default:
      throw new FileError("unsupported");
  }
}
