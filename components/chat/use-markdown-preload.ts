"use client";

import { useEffect } from "react";
import { preloadMarkdown } from "./markdown";
import { preloadEventStream } from "@/lib/browser/chat/event-stream";

/**
 * Answers need the Markdown renderer (react-markdown, KaTeX, highlight.js): fetch it at the first sign of use
 * (a key, a tap or a click), which comes before any answer, not during the page load, where its evaluation
 * was one of the longest tasks (Lighthouse total blocking time). The answer stream's parser
 * (lib/browser/chat/event-stream.ts) is fetched at the same moment.
 */
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
