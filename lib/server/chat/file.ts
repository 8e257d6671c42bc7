import "server-only";
import { AppError } from "@/lib/shared/errors";
import { isPdfError, NOT_PDF_MESSAGE, PdfError } from "@/lib/shared/pdf/errors";
import { PdfClientBusy, PdfPoolBusy, pdfLimits, readBase64DataUrl, readPdf } from "@/lib/server/pdf";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";

/**
 * The spec's `file` (docs/product.md §7: `{ name, type, content }`, content a data URL of a PDF) on
 * /api/ns/chat and /api/ns/chat_user, for a standard model (a confidential model is refused
 * with 409 before this, so no file reaches the server on that path). The server reads it with the browser's code
 * and limits (lib/server/pdf) and the turn goes on as if the browser had sent the text as `document`: same
 * prompt, same context budget, same sentences for the same failures, each a 4xx:
 *   415 not a PDF (docs/product.md §5's "Sorry, this filetype is not supported in this demo yet. Try a PDF."),
 *   400 content that is no base64 data URL, 413 larger than PDF_MAX_BYTES,
 *   422 encrypted, damaged, image-only, a decompression bomb (PDF_MAX_INFLATED_BYTES) or too slow to read
 *   (PDF_PARSE_TIMEOUT_MS), 429 another PDF of the same caller still being read, 503 the PDF workers' queue
 *   full (both with Retry-After).
 */

/**
 * The refusals found without reading the PDF (type, data URL, size, %PDF- header), or null. The routes ask it
 * before the quota is counted, as for images, so a file refused at sight costs no message.
 */
export function fileRefusal(body: ChatRequest): AppError | null {
  const file = body.file;
  if (!file) return null;
  if (file.type.split(";", 1)[0]!.trim().toLowerCase() !== "application/pdf") return notPdf();
  const payload = readBase64DataUrl(file.content);
  if (!payload) {
    return new AppError("bad_request:file_content", "The file's content must be a base64 data URL (data:application/pdf;base64,...).");
  }
  const { maxBytes } = pdfLimits();
  if (payload.bytes > maxBytes) return pdfRefusal(new PdfError("too_large", { maxBytes }));
  if (!payload.pdfHeader) return notPdf();
  return null;
}

/**
 * The body with its `file` read: `document` holds the PDF's text (`truncated` when pages or characters were left
 * out) and `file` is null. A body without a file is returned as it is. Called after the quota was counted:
 * reading costs the server, so a PDF that fails here counts like any other turn that fails.
 * @param client the caller for the one-PDF-at-a-time bound ("user:<id>", "visitor:<key>", null when unknown)
 * @throws AppError as listed in the module comment (fileRefusal's first)
 */
export async function readAttachedFile(body: ChatRequest, client: string | null, signal?: AbortSignal): Promise<ChatRequest> {
  const file = body.file;
  if (!file) return body;
  const refusal = fileRefusal(body);
  if (refusal) throw refusal;
  const payload = readBase64DataUrl(file.content)!;
  try {
    const read = await readPdf(payload.base64, client, signal);
    return { ...body, file: null, document: { name: file.name, text: read.text, truncated: read.truncated } };
  } catch (error) {
    if (isPdfError(error)) throw pdfRefusal(error);
    if (error instanceof PdfClientBusy) {
      throw new AppError("rate_limited:pdf_in_flight", "Another of your PDFs is still being read. Send this one once its answer has come.", {
        headers: { "Retry-After": "2" },
      });
    }
    if (error instanceof PdfPoolBusy) {
      throw new AppError("unavailable:pdf_busy", "The server is reading many PDFs right now. Please try again in a moment.", {
        headers: { "Retry-After": "5" },
      });
    }
    if (signal?.aborted) throw new AppError("bad_request:cancelled", "The request was cancelled.", { status: 499 });
    throw error;
  }
}

function notPdf(): AppError {
  return new AppError("unsupported_media_type:file", NOT_PDF_MESSAGE);
}

/** A PdfError as the answer: its sentence (lib/shared/pdf/errors.ts, the browser's), with a 4xx status. */
function pdfRefusal(error: PdfError): AppError {
  switch (error.code) {
    case "not_pdf":
      return notPdf();
    case "too_large":
      return new AppError("payload_too_large:pdf", error.message);
    default:
      return new AppError(`unprocessable:pdf_${error.code}`, error.message, { reason: error.code });
  }
}
