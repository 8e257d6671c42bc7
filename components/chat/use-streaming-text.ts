"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The answer text as it streams in, committed to React state at most once per animation frame (docs/issues.md #12:
 * a render per token blocked the main thread). `null` when nothing streams, "" before the first words.
 */
export function useStreamingText() {
  const [text, setText] = useState<string | null>(null);
  const buffer = useRef("");
  const frame = useRef<number | null>(null);

  const cancelFrame = () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
  };

  useEffect(() => cancelFrame, []);

  /** Start a new answer: shows the typing indicator until the first delta. */
  const start = useCallback(() => {
    cancelFrame();
    buffer.current = "";
    setText("");
  }, []);

  /** Append a delta; the screen catches up on the next frame. */
  const push = useCallback((piece: string) => {
    buffer.current += piece;
    if (frame.current === null) {
      frame.current = requestAnimationFrame(() => {
        frame.current = null;
        setText(buffer.current);
      });
    }
  }, []);

  /** Stop streaming; returns everything received (including deltas not painted yet). */
  const finish = useCallback(() => {
    cancelFrame();
    setText(null);
    return buffer.current;
  }, []);

  return { text, start, push, finish, received: () => buffer.current };
}
