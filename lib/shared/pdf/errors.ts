import { formatBytes } from "@/lib/shared/bytes";

/**
 * Typed attachment failures, each with a fixed user-facing message (safe to show and to log: it never
 * contains the file's name or content). Shared: the browser reads the web app's PDFs (lib/browser/pdf), the
 * server the spec's `file` (lib/server/pdf), with the same sentences.
 */

export type PdfErrorCode =
  /** Not a PDF: wrong type or no %PDF- header (docs/product.md §5 wording). */
  | "not_pdf"
  /** Larger than PDF_MAX_BYTES. */
  | "too_large"
  /** Needs a password to open. */
  | "encrypted"
  /** Damaged, truncated or otherwise unparsable. */
  | "unreadable"
  /** Parsed, but no text layer (scanned or image-only pages). */
  | "no_text"
  /** Reading took longer than PDF_PARSE_TIMEOUT_MS (the PDF worker was stopped). */
  | "timeout"
  /** Its compressed streams inflate past PDF_MAX_INFLATED_BYTES (a decompression bomb). */
  | "inflate_limit"
  /** The browser could not read the chosen file (docs/product.md §5 "Failed to read file"). */
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
  /** The byte limit that was exceeded, for too_large and inflate_limit. */
  readonly maxBytes?: number;

  constructor(code: PdfErrorCode, options: { maxBytes?: number } = {}) {
    super(messageFor(code, options.maxBytes));
    this.name = "PdfError";
    this.code = code;
    this.maxBytes = options.maxBytes;
  }
}

/** True for a PdfError, optionally with the given code. */
export function isPdfError(err: unknown, code?: PdfErrorCode): err is PdfError {
  return err instanceof PdfError && (code === undefined || err.code === code);
}
