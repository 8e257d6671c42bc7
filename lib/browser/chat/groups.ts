// Date groups of the history sidebar, in calendar days of the reader's time zone. Pure.

export type DateGroup = "Today" | "Yesterday" | "Previous 7 days" | "Previous 30 days" | (string & {});

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

function dayNumber(date: Date, timeZone: string | undefined): number {
  const f = cached(dayParts, timeZone, (tz) => new Intl.DateTimeFormat("en-US", { timeZone: tz, year: "numeric", month: "numeric", day: "numeric" }));
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  return Math.round(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)) / 86_400_000);
}

export function dateGroupOf(updated: Date, now: Date, timeZone?: string): DateGroup {
  const days = dayNumber(now, timeZone) - dayNumber(updated, timeZone);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days <= 7) return "Previous 7 days";
  if (days <= 30) return "Previous 30 days";
  return cached(monthLabels, timeZone, (tz) => new Intl.DateTimeFormat("en-US", { timeZone: tz, month: "long", year: "numeric" })).format(updated);
}

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
