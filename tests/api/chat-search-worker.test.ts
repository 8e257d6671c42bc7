import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchWorkerCore, type SearchReply, type SearchRequest } from "@/lib/browser/chat/search-worker-core";
import { resetConfigForTests } from "../helpers/process-state";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { remove, rename, save, unlock, type Device } from "../helpers/integrity-device";
import { withVault, type Person } from "../helpers/vault-api";

/**
 * The "Search chats" worker's logic (lib/browser/chat/search-worker-core.ts, docs/issues.md #24) over the real route
 * handlers and database: the test plays the page, posting what use-chat-search.ts posts and reading the
 * replies; the chats are saved with their integrity as the browser saves them (docs/issues.md #21).
 */
let t: TestDb;
let alice: Person;
let device: Device;
const ids: string[] = [];

/** A core answering into `replies`, as the worker does for the page. */
function start(p: Person) {
  const replies: SearchReply[] = [];
  const core = new SearchWorkerCore((r) => replies.push(r), apiOverRoutes(p));
  const send = (msg: SearchRequest) => core.handle(msg);
  /** The first reply from `from` on matching `pick`, waiting for it. */
  const next = async <T extends SearchReply["type"]>(type: T, from = 0): Promise<Extract<SearchReply, { type: T }>> => {
    for (let i = 0; i < 500; i++) {
      const found = replies.slice(from).find((r) => r.type === type);
      if (found) return found as Extract<SearchReply, { type: T }>;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no ${type} reply`);
  };
  let query = 0;
  const search = async (run: number, text: string, exclude: string[] = []) => {
    const id = query++;
    const from = replies.length;
    send({ type: "search", run, id, query: text, limit: 30, exclude });
    const reply = await next("hits", from);
    expect(reply.id).toBe(id);
    return reply.hits;
  };
  return { core, replies, send, next, search };
}

const open = async (w: ReturnType<typeof start>, run: number, seen?: Record<string, number>) => {
  const inputs = device.tracker.checkInputs();
  w.send({ type: "open", run, keys: { key: alice.key, integrityKey: inputs.integrityKey, userId: alice.id } });
  const from = w.replies.length;
  w.send({ type: "sync", run, seen: seen ?? inputs.seen, manifest: inputs.manifest });
  return w.next("done", from);
};

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-search-worker@example.com")).id);
  device = await unlock(alice);
  for (let i = 0; i < 27; i++) {
    const extra = i === 13 ? " The quokka smiles." : "";
    const saved = await save(device, alice, null, 0, [
      { role: "user", content: `Question number ${i} about gardens` },
      { role: "assistant", content: `Answer ${i}: water the garden twice a week.${extra}` },
    ]);
    expect(saved.status).toBe(200);
    ids.push(saved.id);
  }
}, 120_000);

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("search worker core", () => {
  it("indexes every chat in batches, reports the ones that passed their check, and answers queries", async () => {
    const w = start(alice);
    const done = await open(w, 1);
    expect(done).toMatchObject({ type: "done", run: 1, indexed: 27, total: 27, failed: 0, error: false });
    const progress = w.replies.filter((r) => r.type === "progress");
    // Results grow while it loads: more than one progress before "done", with indexed counts rising.
    expect(progress.length).toBeGreaterThan(2);
    const verified = progress.flatMap((p) => p.verified.map((v) => v.chat_id));
    expect(new Set(verified)).toEqual(new Set(ids));
    const hits = await w.search(1, "quokka");
    expect(hits.map((h) => h.chat_id)).toEqual([ids[13]]);
    expect(hits[0]!.snippet!.filter((s) => s.match).map((s) => s.text)).toEqual(["quokka"]);
    expect(await w.search(1, "garden", [ids[0]!])).toHaveLength(26);
    // The recorded states are the tracker's, as checkChat would have kept them.
    const other = await unlock(alice);
    await other.tracker.adoptVerified(progress.flatMap((p) => p.verified));
    expect(other.tracker.has(ids[5]!)).toBe(true);
    expect(other.seen.chats[ids[5]!]).toBe(1);
  });

  it("leaves out a chat that fails its integrity check (older than this device has seen)", async () => {
    const w = start(alice);
    const inputs = device.tracker.checkInputs();
    const done = await open(w, 1, { ...inputs.seen, [ids[13]!]: 99 });
    expect(done.indexed).toBe(27);
    expect(await w.search(1, "quokka")).toEqual([]);
    const verified = w.replies.flatMap((r) => (r.type === "progress" ? r.verified.map((v) => v.chat_id) : []));
    expect(verified).not.toContain(ids[13]);
    expect(verified).toHaveLength(26);
    expect(w.replies.flatMap((r) => (r.type === "progress" ? r.rejected : []))).toEqual([ids[13]]);
  });

  it("keeps the index current: saved, renamed and deleted chats, and a later sync reads only what changed", async () => {
    const w = start(alice);
    await open(w, 4);
    let from = w.replies.length;
    w.send({ type: "upsert", run: 4, chat: { chat_id: ids[2]!, title: "Platypus notes", messages: ["echidna facts"], last_updated: new Date().toISOString() } });
    expect(await w.next("updated", from)).toMatchObject({ size: 27, had: true });
    expect((await w.search(4, "echidna")).map((h) => h.chat_id)).toEqual([ids[2]]);
    from = w.replies.length;
    w.send({ type: "rename", run: 4, chatId: ids[2]!, title: "Wombat notes" });
    await w.next("updated", from);
    expect((await w.search(4, "wombat"))[0]!.title).toEqual([{ text: "Wombat", match: true }, { text: " notes", match: false }]);
    from = w.replies.length;
    w.send({ type: "remove", run: 4, chatId: ids[2]! });
    expect(await w.next("updated", from)).toMatchObject({ size: 26, had: true });
    expect(await w.search(4, "wombat")).toEqual([]);

    // Another device renames one chat and deletes another: the next sync picks both up.
    expect(await rename(device, alice, ids[20]!, "Kangaroo travel")).toBe(200);
    expect(await remove(device, alice, ids[21]!)).toBe(200);
    from = w.replies.length;
    const inputs = device.tracker.checkInputs();
    w.send({ type: "sync", run: 4, seen: inputs.seen, manifest: inputs.manifest });
    const done = await w.next("done", from);
    expect(done.total).toBe(26);
    expect((await w.search(4, "kangaroo")).map((h) => h.chat_id)).toEqual([ids[20]]);
    expect((await w.search(4, "number 21")).map((h) => h.chat_id)).not.toContain(ids[21]);
    // Only the chat dropped from this index above was fetched again (a rename leaves the chat's date:
    // its new title was read from the list).
    const verified = w.replies.slice(from).flatMap((r) => (r.type === "progress" ? r.verified.map((v) => v.chat_id) : []));
    expect(verified).toEqual([ids[2]]);
  });

  it("ignores what belongs to another vault session, and forgets everything on close", async () => {
    const w = start(alice);
    await open(w, 7);
    w.send({ type: "remove", run: 6, chatId: ids[13]! });
    expect(w.replies.some((r) => r.type === "updated")).toBe(false);
    expect(await w.search(7, "quokka")).toHaveLength(1);
    w.send({ type: "close", run: 7 });
    w.send({ type: "search", run: 7, id: 99, query: "quokka", limit: 30, exclude: [] });
    await new Promise((r) => setTimeout(r, 20));
    expect(w.replies.some((r) => r.type === "hits" && r.id === 99)).toBe(false);
  });
});
