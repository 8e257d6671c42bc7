/** A size in whole KB: "0 KB" for nothing, at least "1 KB" for any stored byte. */
export function formatKb(bytes: number): string {
  const kb = bytes <= 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
  return `${kb.toLocaleString("en-US")} KB`;
}

/** "1 passage", "2 passages". */
export function passageCount(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "passage" : "passages"}`;
}
