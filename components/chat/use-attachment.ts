"use client";

import { useRef, useState } from "react";
import type { StagedFile } from "@/lib/browser/chat/send-turn";
import { isFileError } from "@/lib/browser/files/errors";
import type { PdfLimits } from "@/lib/browser/pdf";
import { isPdfError, READ_FAILURE_MESSAGE } from "@/lib/shared/pdf/errors";
import type { ModelChoice } from "@/lib/shared/llm/models";

/** The composer's attachment, read in this browser (only its text is sent, docs/issues.md #23). */
export function useAttachment(pdfLimits: PdfLimits) {
  const [staged, setStaged] = useState<StagedFile | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const readingAbort = useRef<AbortController | null>(null);
  const pendingRead = useRef<Promise<StagedFile | null> | null>(null);

  /** Read and stage `file`; an earlier read stops. */
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

  const remove = () => {
    readingAbort.current?.abort();
    readingAbort.current = null;
    pendingRead.current = null;
    setReading(null);
    setStaged(null);
  };

  /** The read in progress (it settles with the staged file, or null), else null. */
  const pending = () => pendingRead.current;

  return { staged, setStaged, reading, pick, remove, pending };
}
