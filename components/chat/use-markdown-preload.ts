"use client";

import { useEffect } from "react";
import { preloadMarkdown } from "@/components/message/markdown";
import { preloadEventStream } from "@/lib/browser/chat/event-stream";

/** Fetch the Markdown renderer and stream parser at the first key, tap or click, not during the page load. */
export function useMarkdownPreload(): void {
  useEffect(() => {
    const events = ["keydown", "pointerdown", "touchstart"] as const;
    const preload = () => {
      events.forEach((e) => window.removeEventListener(e, preload, true));
      preloadMarkdown();
      preloadEventStream();
    };
    events.forEach((e) => window.addEventListener(e, preload, { capture: true, passive: true }));
    return () => events.forEach((e) => window.removeEventListener(e, preload, true));
  }, []);
}
