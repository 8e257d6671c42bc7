import { formatBytes } from "@/lib/shared/bytes";
import { NOT_PDF_MESSAGE, READ_FAILURE_MESSAGE } from "@/lib/shared/pdf/errors";

// Failures of reading a non-PDF attachment, with fixed messages that never contain the file's name or content.
export type FileErrorCode =
  | "unsupported"
  | "too_large"
  | "not_text"
  | "empty"
  | "unreadable"
  | "inflate_limit"
  | "timeout"
  | "image_not_supported"
  | "read_failed";

export class FileError extends Error {
  readonly code: FileErrorCode;

  constructor(code: FileErrorCode, detail: { maxBytes?: number; modelTitle?: string } = {}) {
    super(messageFor(code, detail));
    this.name = "FileError";
    this.code = code;
  }
}

function messageFor(code: FileErrorCode, { maxBytes, modelTitle }: { maxBytes?: number; modelTitle?: string }): string {
  switch (code) {
    case "unsupported":
      return NOT_PDF_MESSAGE;
    case "too_large":
      return maxBytes === undefined ? "This file is too large." : `This file is too large. The limit is ${formatBytes(maxBytes)}.`;
    case "not_text":
      return "This file does not contain text Hush can read. Try a text, Markdown, CSV, JSON, source code, Word or PDF file.";
    case "empty":
      return "This file is empty: there is nothing to read.";
    case "unreadable":
      return "This Word document could not be read. It may be damaged. Try saving it again as .docx or as a PDF.";
    case "inflate_limit":
      return maxBytes === undefined
        ? "This Word document expands to too much data when opened."
        : `This Word document expands to more than ${formatBytes(maxBytes)} when opened, which is more than Hush reads.`;
    case "timeout":
      return "This file took too long to read. Try a smaller file.";
    case "image_not_supported":
      return `The ${modelTitle ?? "chosen"} model cannot read images. Attach the text instead, or describe the image in your message.`;
    case "read_failed":
      return READ_FAILURE_MESSAGE;
  }
}

export function isFileError(error: unknown): error is FileError {
  return error instanceof FileError;
}
