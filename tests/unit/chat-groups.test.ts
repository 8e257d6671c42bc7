import { describe, expect, it } from "vitest";
import { dateGroupOf, groupChatsByDate } from "@/lib/browser/chat/groups";

/** The sidebar's date groups (docs/issues.md #9 History), with a fixed "now" and explicit time zones. */
describe("dateGroupOf", () => {
  // 2026-11-22 10:00 in Auckland (UTC+13 in November) is 2026-11-21 21:00 UTC.
  const now = new Date("2026-11-21T21:00:00Z");
  const AKL = "Pacific/Auckland";

  it("labels calendar days in the reader's time zone, not UTC and not 24-hour spans", () => {
    // 00:05 on the same Auckland day (still the 21st in UTC).
    expect(dateGroupOf(new Date("2026-11-21T11:05:00Z"), now, AKL)).toBe("Today");
    // 23:55 on the Auckland day before: five minutes before midnight is yesterday, not "today".
    expect(dateGroupOf(new Date("2026-11-21T10:55:00Z"), now, AKL)).toBe("Yesterday");
    // The same instants in UTC fall on one day: both "Today".
    expect(dateGroupOf(new Date("2026-11-21T11:05:00Z"), now, "UTC")).toBe("Today");
    expect(dateGroupOf(new Date("2026-11-21T10:55:00Z"), now, "UTC")).toBe("Today");
  });

  it("uses Today, Yesterday, Previous 7 days, Previous 30 days, then month and year", () => {
    const at = (isoDay: string) => new Date(`${isoDay}T12:00:00Z`);
    const utcNow = new Date("2026-11-22T09:00:00Z");
    expect(dateGroupOf(at("2026-11-22"), utcNow, "UTC")).toBe("Today");
    expect(dateGroupOf(at("2026-11-21"), utcNow, "UTC")).toBe("Yesterday");
    expect(dateGroupOf(at("2026-11-20"), utcNow, "UTC")).toBe("Previous 7 days");
    expect(dateGroupOf(at("2026-11-15"), utcNow, "UTC")).toBe("Previous 7 days");
    expect(dateGroupOf(at("2026-11-14"), utcNow, "UTC")).toBe("Previous 30 days");
    expect(dateGroupOf(at("2026-10-23"), utcNow, "UTC")).toBe("Previous 30 days");
    expect(dateGroupOf(at("2026-10-22"), utcNow, "UTC")).toBe("October 2026");
    expect(dateGroupOf(at("2026-01-31"), utcNow, "UTC")).toBe("January 2026");
    expect(dateGroupOf(at("2025-12-31"), utcNow, "UTC")).toBe("December 2025");
    // A timestamp from a server clock slightly ahead is still today.
    expect(dateGroupOf(new Date("2026-11-22T09:00:05Z"), utcNow, "UTC")).toBe("Today");
  });

  it("names the month of the reader's calendar (31 Oct 23:30 in UTC is 1 Nov in Auckland)", () => {
    const utcNow = new Date("2027-03-01T00:00:00Z");
    const t = new Date("2026-10-31T23:30:00Z");
    expect(dateGroupOf(t, utcNow, "UTC")).toBe("October 2026");
    expect(dateGroupOf(t, utcNow, AKL)).toBe("November 2026");
  });

  it("counts days across a daylight-saving change as calendar days", () => {
    // New York leaves DST on 2026-11-01: the 25-hour day is still one day.
    const ny = "America/New_York";
    const nyNow = new Date("2026-11-02T15:00:00Z"); // 10:00 on 2 Nov in New York
    expect(dateGroupOf(new Date("2026-11-01T04:30:00Z"), nyNow, ny)).toBe("Yesterday"); // 00:30 on 1 Nov EDT
    expect(dateGroupOf(new Date("2026-11-01T03:30:00Z"), nyNow, ny)).toBe("Previous 7 days"); // 23:30 on 31 Oct
  });
});

describe("groupChatsByDate", () => {
  const now = new Date("2026-11-22T09:00:00Z");
  const chat = (id: string, last_updated: string) => ({ chat_id: id, last_updated });

  it("keeps the given newest-first order (docs/product.md §2) and makes one group per run of labels", () => {
    const chats = [
      chat("a", "2026-11-22T08:00:00Z"),
      chat("b", "2026-11-22T01:00:00Z"),
      chat("c", "2026-11-21T08:00:00Z"),
      chat("d", "2026-11-18T08:00:00Z"),
      chat("e", "2026-11-01T08:00:00Z"),
      chat("f", "2026-09-30T08:00:00Z"),
      chat("g", "2026-09-02T08:00:00Z"),
      chat("h", "2025-09-02T08:00:00Z"),
    ];
    const groups = groupChatsByDate(chats, now, "UTC");
    expect(groups.map((g) => [g.label, g.chats.map((c) => c.chat_id).join("")])).toEqual([
      ["Today", "ab"],
      ["Yesterday", "c"],
      ["Previous 7 days", "d"],
      ["Previous 30 days", "e"],
      ["September 2026", "fg"],
      ["September 2025", "h"],
    ]);
    expect(groups.flatMap((g) => g.chats)).toEqual(chats);
  });

  it("gives an empty list no groups and treats an unreadable date as now", () => {
    expect(groupChatsByDate([], now, "UTC")).toEqual([]);
    expect(groupChatsByDate([chat("x", "not a date")], now, "UTC")[0]!.label).toBe("Today");
  });

  it("uses the runtime's own time zone when none is given", () => {
    expect(groupChatsByDate([chat("x", now.toISOString())], now)[0]!.label).toBe("Today");
  });
});
