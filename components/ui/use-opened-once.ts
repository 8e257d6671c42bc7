"use client";

import { useState } from "react";

/** Whether a lazily loaded dialog has been opened once (docs/issues.md #42); then it stays mounted. */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(false);
  // Set during render (React's "storing information from previous renders"): no extra commit with it false.
  if (open && !opened) setOpened(true);
  return open || opened;
}
