"use client";

import { useCallback, useState } from "react";
import { AppError } from "@/lib/shared/errors";

/** One vault action at a time; an AppError's message is shown as is, other errors as `fallback`. */
export function useAction(fallback = "Something went wrong. Please try again.") {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = useCallback(
    async (work: () => Promise<void>) => {
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (e) {
        setError(e instanceof AppError ? e.message : fallback);
      } finally {
        setBusy(false);
      }
    },
    [fallback],
  );
  return { busy, error, setError, act };
}
