/**
 * The project files dialog's small texts (the project files dialog): sizes in whole KB, with nothing stored shown
 * as "0 KB" and any stored byte as at least "1 KB"; "1 passage", "2 passages".
 */
export function formatKb(bytes: number): string {
  const kb = bytes <= 0 ? 0 : Math.max(1, Math.round(bytes / 1024));
  return `${kb.toLocaleString("en-US")} KB`;
}

/** "N passages", singular for one. */
export function passageCount(n: number): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? "passage" : "passages"}`;
}
