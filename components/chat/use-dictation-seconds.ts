"use client";

import { useEffect, useState } from "react";
import { dictationUsedUp } from "@/lib/browser/voice/seconds";
import { STT_QUOTA_MESSAGE } from "@/lib/shared/audio/messages";

/** Read once when `enabled`, set again by a refused recording. @returns [the sentence saying so, or null; its setter] */
export function useDictationUsedUp(enabled: boolean): [string | null, (message: string) => void] {
  const [usedUp, setUsedUp] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    void dictationUsedUp(controller.signal).then((over) => {
      if (over && !controller.signal.aborted) setUsedUp(STT_QUOTA_MESSAGE);
    });
    return () => controller.abort();
  }, [enabled]);
  return [usedUp, setUsedUp];
}
