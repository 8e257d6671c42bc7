/**
 * Date groups of the history sidebar (docs/issues.md #9 History, as ChatGPT groups its list): "Today",
 * "Yesterday", "Previous 7 days", "Previous 30 days", then one group per month ("November 2026").
 * Days are calendar days in the reader's time zone (the browser's, unless one is given), so a chat
 * saved at 23:30 is "Yesterday" at 00:10. Pure: no clock, no DOM.
 */

export type DateGroup = "Today" | "Yesterday" | "Previous 7 days" | "Previous 30 days" | (string & {});

/** A group of consecutive chats with the same label, in the order they were given. */
export interface ChatGroup<T> {
  label: DateGroup;
  chats: T[];
}

const dayParts = new Map<string, Intl.DateTimeFormat>();
const monthLabels = new Map<string, Intl.DateTimeFormat>();

function cached(map: Map<string, Intl.DateTimeFormat>, timeZone: string | undefined, make: (tz: string | undefined) => Intl.DateTimeFormat) {
  const key = timeZone ?? "";
  let f = map.get(key);
  if (!f) {
    f = make(timeZone);
    map.set(key, f);
  }
  return f;
}

/** The calendar day of `date` in `timeZone`, as days since 1970-01-01 (an integer). */
function dayNumber(date: Date, timeZone: string | undefined): number {
  const f = cached(dayParts, timeZone, (tz) => new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "numeric", day: "numeric" }));
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return Math.round(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / 86_400_000);
}

/**
 * The group label of a chat last updated at `updated`, seen at `now`.
 * 0 days back: "Today"; 1: "Yesterday"; 2–7: "Previous 7 days"; 8–30: "Previous 30 days"; older: the
 * month and year in `timeZone` ("November 2026"). A date in the future (clock skew) is "Today".
 */
export function dateGroupOf(updated: Date, now: Date, timeZone?: string): DateGroup {
  const days = dayNumber(now, timeZone) - dayNumber(updated, timeZone);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  return cached(monthLabels, timeZone, (tz) => new Intl.DateTimeFormat("en-US", { timeZone: tz, month: "long", year: "numeric" })).format(updated);
}

/**
 * Split a list of chats (already newest first by last_updated, docs/product.md §2) into date groups without
 * reordering it: consecutive chats with the same label share a group. `last_updated` is an ISO
 * timestamp; an unreadable one counts as now.
 */
export function groupChatsByDate<T extends { last_updated: string }>(chats: readonly T[], now: Date, timeZone?: string): ChatGroup<T>[] {
  const groups: ChatGroup<T>[] = [];
  for (const chat of chats) {
    const updated = new Date(chat.last_updated);
    const label = dateGroupOf(Number.isNaN(updated.getTime()) ? now : updated, now, timeZone);
    const last = groups.at(-1);
    if (last && last.label === label) last.chats.push(chat);
    else groups.push({ label, chats: [chat] });
  }
  return groups;
}
