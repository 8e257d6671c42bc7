import "server-only";
import { AppError } from "@/lib/shared/errors";
import { isPdfError, NOT_PDF_MESSAGE, PdfError } from "@/lib/shared/pdf/errors";
import { PdfClientBusy, PdfPoolBusy, pdfLimits, readBase64DataUrl, readPdf } from "@/lib/server/pdf";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";

// The spec's `file` (docs/product.md §7, a PDF data URL) read on the server for a standard model, as if the
// browser had sent its text: 415, 400, 413, 422, 429 or 503 for the same failures.

/** The refusals found without reading the PDF, or null; asked before the quota is counted. */
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

/** The body with its `file` read into `document`. @throws AppError 415, 400, 413, 422, 429, 503 */
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
