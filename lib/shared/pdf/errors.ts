import { formatBytes } from "@/lib/shared/bytes";

// Typed attachment failures, each with a fixed message that never contains the file's name or content.

export type PdfErrorCode =
  | "not_pdf"
  | "too_large"
  | "encrypted"
  | "unreadable"
  | "no_text"
  | "timeout"
  | "inflate_limit"
  | "read_failed";

/** docs/product.md §5, verbatim. */
export const NOT_PDF_MESSAGE = "Sorry, this filetype is not supported in this demo yet. Try a PDF.";
/** docs/product.md §5, verbatim. */
export const READ_FAILURE_MESSAGE = "Failed to read file";

function messageFor(code: PdfErrorCode, maxBytes?: number): string {
  switch (code) {
    case "not_pdf":
      return NOT_PDF_MESSAGE;
    case "too_large":
      return maxBytes === undefined
        ? "This PDF is too large."
        : `This PDF is too large. The limit is ${formatBytes(maxBytes)}.`;
    case "encrypted":
      return "This PDF is password-protected. Remove the password and try again.";
    case "unreadable":
      return "This PDF could not be read. It may be damaged.";
    case "no_text":
      return "This PDF has no selectable text (it may be a scanned image), so there is nothing to read. Try a PDF with text.";
    case "timeout":
      return "This PDF took too long to read. Try a smaller PDF.";
    case "inflate_limit":
      return maxBytes === undefined
        ? "This PDF expands to too much data when opened. Try a smaller PDF."
        : `This PDF expands to more than ${formatBytes(maxBytes)} when opened, which is more than Hush reads. Try a smaller PDF.`;
    case "read_failed":
      return READ_FAILURE_MESSAGE;
  }
}

export class PdfError extends Error {
  readonly code: PdfErrorCode;
  readonly maxBytes?: number;

  constructor(code: PdfErrorCode, options: { maxBytes?: number } = {}) {
    super(messageFor(code, options.maxBytes));
    this.name = "PdfError";
    this.code = code;
    this.maxBytes = options.maxBytes;
  }
}

export function isPdfError(err: unknown, code?: PdfErrorCode): err is PdfError {
  return err instanceof PdfError && (code === undefined || err.code === code);
}
