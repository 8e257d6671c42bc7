"use client";

import { useRef, useState } from "react";
import type { StagedFile } from "@/lib/browser/chat/send-turn";
import { isFileError } from "@/lib/browser/files/errors";
import type { PdfLimits } from "@/lib/browser/pdf";
import { isPdfError, READ_FAILURE_MESSAGE } from "@/lib/shared/pdf/errors";
import type { ModelChoice } from "@/lib/shared/llm/models";

/**
 * The composer's attachment ("Documents"): the file staged for the next send, and the one being
 * read in this browser now. A PDF is read in a Web Worker and only its text is ever sent (so are text,
 * source and Word files since docs/issues.md #23, lib/browser/files/browser.ts). A send while it is being read
 * waits for it (`pending`); if it cannot be read, `onError` gets the sentence to show.
 * `pdfLimits`: PDF_MAX_BYTES, _PAGES, _TEXT_CHARS, _PARSE_TIMEOUT_MS, _INFLATED_BYTES.
 */
export function useAttachment(pdfLimits: PdfLimits) {
  const [staged, setStaged] = useState<StagedFile | null>(null);
  // The file being read now (its name), and the way to stop reading it.
  const [reading, setReading] = useState<string | null>(null);
  const readingAbort = useRef<AbortController | null>(null);
  const pendingRead = useRef<Promise<StagedFile | null> | null>(null);

  /** Read `file` for `model` (images only for a model that reads them) and stage it; an earlier read stops. */
  const pick = (file: File, model: ModelChoice | undefined, onError: (text: string) => void) => {
    readingAbort.current?.abort();
    const controller = new AbortController();
    readingAbort.current = controller;
    setStaged(null);
    setReading(file.name);
    const job = (async (): Promise<StagedFile | null> => {
      try {
        // The readers load with the first file, not in /chat's first load (docs/issues.md #42).
        const { readAttachment } = await import("@/lib/browser/files/browser");
        const read = await readAttachment(file, pdfLimits, model, controller.signal);
        if (!controller.signal.aborted) setStaged(read);
        return read;
      } catch (error) {
        if (!controller.signal.aborted) onError(isPdfError(error) || isFileError(error) ? error.message : READ_FAILURE_MESSAGE);
        return null;
      } finally {
        if (readingAbort.current === controller) {
          readingAbort.current = null;
          pendingRead.current = null;
          setReading(null);
        }
      }
    })();
    pendingRead.current = job;
  };

  /** Unstage the file and stop reading one. */
  const remove = () => {
    readingAbort.current?.abort();
    readingAbort.current = null;
    pendingRead.current = null;
    setReading(null);
    setStaged(null);
  };

  /** The read in progress (it settles with the staged file, or null when it could not be read), else null. */
  const pending = () => pendingRead.current;

  return { staged, setStaged, reading, pick, remove, pending };
}
