"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/** The streaming answer, committed at most once per frame (docs/issues.md #12); `null` when nothing streams. */
export function useStreamingText() {
  const [text, setText] = useState<string | null>(null);
  const buffer = useRef("");
  const frame = useRef<number | null>(null);

  const cancelFrame = () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
  };

  useEffect(() => cancelFrame, []);

  const start = useCallback(() => {
    cancelFrame();
    buffer.current = "";
    setText("");
  }, []);

  const push = useCallback((piece: string) => {
    buffer.current += piece;
    if (frame.current === null) {
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        setText(buffer.current);
      });
    }
  }, []);

  /** Returns everything received, including deltas not painted yet. */
  const finish = useCallback(() => {
    cancelFrame();
    setText(null);
    return buffer.current;
  }, []);

  return { text, start, push, finish, received: () => buffer.current };
}
