import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/shared/errors";
import { keptForRetry, notSavedYetText, retryKeptSave, SAVE_RETRY_DELAYS_MS, type RetryTimers } from "@/lib/browser/chat/save-retry";
import { NETWORK_ERROR_MESSAGE } from "@/lib/browser/api/client";

/** docs/issues.md #53: a turn the server did not store (offline, restarting, disk full) is kept and saved again (lib/browser/chat/save-retry.ts). */

const DISK_FULL = "The server has run out of disk space; your message was not saved";
const refused = (status: number, message = "x") => AppError.fromStatus(status, message, "chat_save");

/** Timers run by hand: `next()` fires the earliest one and says after how many ms it was set. */
function manualTimers() {
  const pending: { run: () => void; ms: number }[] = [];
  const timers: RetryTimers = {
    set: (run, ms) => {
      const t = { run, ms };
      pending.push(t);
      return t;
    },
    clear: (handle) => {
      const i = pending.indexOf(handle as (typeof pending)[number]);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const next = async () => {
    const t = pending.shift();
    if (!t) return null;
    t.run();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return t.ms;
  };
  return { timers, next, pending };
}

describe("kept saves (docs/issues.md #53)", () => {
  it("keeps a network failure, a restart (503) and a full disk (507); not a refusal", () => {
    expect(keptForRetry(new AppError("offline:api", NETWORK_ERROR_MESSAGE, { status: 0 }))).toBe(true);
    expect(keptForRetry(refused(503))).toBe(true);
    expect(keptForRetry(refused(507, DISK_FULL))).toBe(true);
    expect(refused(507, DISK_FULL).code).toBe("insufficient_storage:chat_save");
    for (const status of [400, 401, 403, 404, 409, 413, 500]) expect(keptForRetry(refused(status))).toBe(false);
    expect(keptForRetry(new Error("x"))).toBe(false);
  });

  it("says what happened and what happens next, with the server's sentence", () => {
    expect(notSavedYetText(refused(507, DISK_FULL))).toBe(
      "This answer is not saved yet: The server has run out of disk space; your message was not saved. It is kept in this page and will be saved as soon as the server accepts it again.",
    );
    expect(notSavedYetText(new AppError("offline:api", NETWORK_ERROR_MESSAGE, { status: 0 }))).toContain(`not saved yet: ${NETWORK_ERROR_MESSAGE} It is kept`);
  });

  it("tries again after each delay while the disk is full, then reports the save", async () => {
    const { timers, next } = manualTimers();
    const answers = [refused(507, DISK_FULL), refused(503), new AppError("offline:api", "n", { status: 0 }), null];
    let calls = 0;
    const seen: string[] = [];
    retryKeptSave(
      async () => {
        const a = answers[calls++];
        if (a) throw a;
      },
      { onSaved: () => seen.push("saved"), onGaveUp: () => seen.push("gave up") },
      timers,
    );
    const waits: (number | null)[] = [];
    for (let i = 0; i < 4; i++) waits.push(await next());
    expect(waits).toEqual(SAVE_RETRY_DELAYS_MS.slice(0, 4));
    expect(calls).toBe(4);
    expect(seen).toEqual(["saved"]);
    expect(await next()).toBeNull();
  });

  it("gives up on a final refusal, and does nothing once cancelled", async () => {
    const a = manualTimers();
    const seen: unknown[] = [];
    retryKeptSave(async () => Promise.reject(refused(409, "changed")), { onSaved: () => seen.push("saved"), onGaveUp: (e) => seen.push(e) }, a.timers);
    await a.next();
    expect(seen).toHaveLength(1);
    expect((seen[0] as AppError).status).toBe(409);
    expect(a.pending).toHaveLength(0);

    const b = manualTimers();
    let calls = 0;
    const kept = retryKeptSave(async () => void calls++, { onSaved: () => seen.push("saved"), onGaveUp: () => seen.push("gave up") }, b.timers);
    kept.cancel();
    expect(b.pending).toHaveLength(0);
    expect(calls).toBe(0);
    expect(seen).toHaveLength(1);
  });
});
