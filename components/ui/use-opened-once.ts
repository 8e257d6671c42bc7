"use client";

import { useState } from "react";

/**
 * Whether a lazily loaded dialog has been opened at least once: false until `open` is first true, then
 * true for the component's life. A dialog rendered only once this is true keeps its code out of the
 * first load (docs/issues.md #42) and, after that, stays mounted, so its native <dialog> closes and
 * reopens in place with its state.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(false);
  // Set during render (React's "storing information from previous renders"): no extra commit with it false.
  if (open && !opened) setOpened(true);
  return open || opened;
}
