import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { GET as chatHistory } from "@/app/api/ns/chat_history/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { addChild, addSibling, fromMessages, versionOf, type BranchTree } from "@/lib/browser/chat/branches";
import { planSave, storedPath, treeForSaving, treeFromSaved, type SavedMessage } from "@/lib/browser/chat/saved-tree";
import { resetConfigForTests } from "../helpers/process-state";
import { openChat, sealTurn, type SealedChatJson } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { dumpDatabase } from "../helpers/db-dump";
import { createTestUser } from "../helpers/auth";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * docs/issues.md #9: saved chats keep their edited and regenerated versions. The test plays the browser (builds the
 * branch tree with lib/browser/chat/branches.ts, seals with lib/browser/vault/seal.ts) against the real chat_save and
 * chat_history handlers and the real database (PGlite, or PostgreSQL with DATABASE_URL).
 */
let t: TestDb;
let alice: Person;
let bob: Person;



const save = (p: Person, body: unknown) => chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }));

async function read(p: Person, chatId: string): Promise<SealedChatJson> {
  const res = await chatHistoryOne(req(`/api/ns/chat_history/${chatId}`, { cookie: p.cookie }), { params: Promise.resolve({ chatId }) });
  expect(res.status).toBe(200);
  return (await res.json()) as SealedChatJson;
}

/** Store `tree` as the browser's save does: plan from `savedIds`, seal, POST. Returns the new saved ids. */
async function store(p: Person, chatId: string, tree: BranchTree<SavedMessage>, savedIds: string[], create = false) {
  const path = storedPath(tree);
  const plan = create ? { from: 0, replace: false } : planSave(savedIds, path);
  expect(plan).not.toBeNull();
  const body = await sealTurn({
    key: p.key,
    userId: p.id,
    chatId,
    create,
    firstPosition: plan!.from,
    messages: path.slice(plan!.from).map((n) => ({ role: n.message.role, content: n.message.content })),
    title: create ? "Branching title" : null,
    replace: plan!.replace,
    tree: treeForSaving(tree),
  });
  const res = await save(p, body);
  expect(res.status).toBe(200);
  return path.map((n) => n.id);
}

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-branches@example.com")).id);
  bob = await withVault((await createTestUser("bob-branches@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("saved versions (docs/issues.md #9)", () => {
  it("a regenerated answer replaces the stored one, the tree keeps both, and reopening shows 2 / 2", async () => {
    const chatId = crypto.randomUUID();
    let tree = fromMessages<SavedMessage>([
      { role: "user", content: "Question about kiwis" },
      { role: "assistant", content: "First answer about kiwis" },
    ]);
    let saved = await store(alice, chatId, tree, [], true);
    expect((await read(alice, chatId)).tree_ciphertext).toBeNull();

    tree = addSibling(tree, "m2", { role: "assistant", content: "Second answer about kiwis" }).tree;
    saved = await store(alice, chatId, tree, saved);
    const sealed = await read(alice, chatId);
    expect(sealed.messages.map((m) => m.position)).toEqual([0, 1]);
    expect(sealed.tree_ciphertext).toEqual(expect.any(String));

    const opened = await openChat(alice.key, alice.id, sealed);
    expect(opened.messages.map((m) => m.content)).toEqual(["Question about kiwis", "Second answer about kiwis"]);
    const back = treeFromSaved(opened.tree, opened.messages);
    const answer = storedPath(back)[1]!;
    expect(versionOf(back, answer.id)).toEqual({ index: 2, count: 2 });
    expect(saved).toEqual(storedPath(back).map((n) => n.id));
  });

  it("an edited first question replaces the whole stored path from position 0, then a plain turn appends", async () => {
    const chatId = crypto.randomUUID();
    let tree = fromMessages<SavedMessage>([
      { role: "user", content: "Original question" },
      { role: "assistant", content: "Original answer" },
      { role: "user", content: "Follow-up" },
      { role: "assistant", content: "Follow-up answer" },
    ]);
    let saved = await store(alice, chatId, tree, [], true);
    const edited = addSibling(tree, "m1", { role: "user", content: "Edited question" });
    tree = addChild(edited.tree, edited.id, { role: "assistant", content: "Answer to the edit" }).tree;
    saved = await store(alice, chatId, tree, saved);
    let opened = await openChat(alice.key, alice.id, await read(alice, chatId));
    expect(opened.messages.map((m) => m.content)).toEqual(["Edited question", "Answer to the edit"]);

    const leaf = storedPath(tree).at(-1)!.id;
    const more = addChild(tree, leaf, { role: "user", content: "Next" });
    tree = addChild(more.tree, more.id, { role: "assistant", content: "Next answer" }).tree;
    const plan = planSave(saved, storedPath(tree));
    expect(plan).toMatchObject({ from: 2, replace: false });
    await store(alice, chatId, tree, saved);
    opened = await openChat(alice.key, alice.id, await read(alice, chatId));
    expect(opened.messages.map((m) => m.content)).toEqual(["Edited question", "Answer to the edit", "Next", "Next answer"]);
    const back = treeFromSaved(opened.tree, opened.messages);
    expect(versionOf(back, storedPath(back)[0]!.id)).toEqual({ index: 2, count: 2 });
  });

  it("refuses a replace beyond the next position, an append at an earlier one, another user's chat, and dates without create", async () => {
    const chatId = crypto.randomUUID();
    const seal = (firstPosition: number, create: boolean, replace = false) =>
      sealTurn({ key: alice.key, userId: alice.id, chatId, create, firstPosition, messages: [{ role: "user", content: "x" }], replace });
    expect((await save(alice, await seal(0, true))).status).toBe(200);
    expect((await save(alice, await seal(2, false, true))).status).toBe(409);
    expect((await save(alice, await seal(0, false))).status).toBe(409);
    expect((await save(bob, await seal(0, false, true))).status).toBe(404);
    expect((await save(alice, await seal(0, true, true))).status).toBe(400);
    const dated = { ...(await seal(1, false)), created_at: "2024-01-01T00:00:00Z" };
    expect((await save(alice, dated)).status).toBe(400);
    // Same position replaced by the owner works.
    expect((await save(alice, await seal(0, false, true))).status).toBe(200);
  });

  it("omitting tree_ciphertext keeps the tree, null clears it, and a tree moved to another chat does not open", async () => {
    const chatId = crypto.randomUUID();
    let tree = fromMessages<SavedMessage>([{ role: "user", content: "q" }, { role: "assistant", content: "a1" }]);
    tree = addSibling(tree, "m2", { role: "assistant", content: "a2" }).tree;
    await store(alice, chatId, tree, [], true);
    const withTree = await read(alice, chatId);
    expect(withTree.tree_ciphertext).toEqual(expect.any(String));

    const appended = await sealTurn({ key: alice.key, userId: alice.id, chatId, create: false, firstPosition: 2, messages: [{ role: "user", content: "more" }] });
    expect((await save(alice, appended)).status).toBe(200);
    expect((await read(alice, chatId)).tree_ciphertext).toBe(withTree.tree_ciphertext);

    // A stale tree (its active path is not the stored messages) falls back to the messages.
    const opened = await openChat(alice.key, alice.id, await read(alice, chatId));
    expect(storedPath(treeFromSaved(opened.tree, opened.messages)).map((n) => n.message.content)).toEqual(["q", "a2", "more"]);

    const other = crypto.randomUUID();
    await store(alice, other, fromMessages<SavedMessage>([{ role: "user", content: "q" }, { role: "assistant", content: "a2" }]), [], true);
    const moved = { ...(await read(alice, other)), tree_ciphertext: withTree.tree_ciphertext };
    await expect(openChat(alice.key, alice.id, moved)).rejects.toThrow();

    const cleared = await sealTurn({ key: alice.key, userId: alice.id, chatId, create: false, firstPosition: 3, messages: [{ role: "assistant", content: "x" }], tree: null });
    expect((await save(alice, cleared)).status).toBe(200);
    expect((await read(alice, chatId)).tree_ciphertext).toBeNull();
  });

  it("keeps an imported chat's original dates (not in the future) and lists it by them", async () => {
    const chatId = crypto.randomUUID();
    const createdAt = new Date("2023-03-01T10:00:00.000Z");
    const lastUpdated = new Date("2023-03-02T11:30:00.000Z");
    const body = await sealTurn({ key: alice.key, userId: alice.id, chatId, create: true, firstPosition: 0, messages: [{ role: "user", content: "imported" }], title: "Imported", dates: { createdAt, lastUpdated } });
    expect((await save(alice, body)).status).toBe(200);
    const sealed = await read(alice, chatId);
    expect(sealed.created_at).toBe(createdAt.toISOString());
    expect(sealed.last_updated).toBe(lastUpdated.toISOString());
    const page = (await (await chatHistory(req("/api/ns/chat_history?limit=100", { cookie: alice.cookie }))).json()) as { chat_history: { chat_id: string }[] };
    expect(page.chat_history.at(-1)!.chat_id).toBe(chatId);

    const future = { ...body, chat_id: crypto.randomUUID(), last_updated: new Date(Date.now() + 86_400_000).toISOString() };
    expect((await save(alice, future)).status).toBe(400);
    const reversed = { ...body, chat_id: crypto.randomUUID(), created_at: lastUpdated.toISOString(), last_updated: createdAt.toISOString() };
    expect((await save(alice, reversed)).status).toBe(400);
  });

  it("stores no version's text in clear: the database dump holds none of them", async () => {
    const dump = await dumpDatabase(t.db);
    for (const text of ["kiwis", "First answer", "Second answer", "Original question", "Edited question", "Answer to the edit", "Branching title", "Imported"]) {
      expect(dump).not.toContain(text);
    }
    expect(dump).toContain("tree_ciphertext");
  });
});
