import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { POST as deleteUser } from "@/app/api/delete_user/route";
import { DELETE as projectDelete, GET as projectList, PATCH as projectUpdate, POST as projectCreate } from "@/app/api/projects/route";
import { PATCH as projectMoveChat } from "@/app/api/projects/chat/route";
import { resetConfigForTests } from "../helpers/process-state";
import { MAX_PROJECTS, PROJECT_INSTRUCTIONS_MAX_CHARS } from "@/lib/shared/projects/schemas";
import { openProject, sealProject } from "@/lib/browser/vault/projects";
import { sealTurn } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req, withVault, type Person } from "../helpers/vault-api";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { unlock } from "../helpers/integrity-device";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { completeRotation, draftRotation, startRotation } from "@/lib/browser/vault/rotation";

/**
 * Projects (docs/issues.md #23) through the real handlers and database. The test plays the browser: it holds the
 * vault key, seals each project's name and instructions with lib/browser/vault/projects.ts and opens what comes back.
 */
let t: TestDb;
let alice: Person;
let bob: Person;

type Listed = { projects: { project_id: string; sealed: string; created_at: string }[]; chats: { chat_id: string; project_id: string }[] };

const call = (handler: (r: Request) => Promise<Response>, method: string, path: string, p: Person | null, body?: unknown, extra: { origin?: string; raw?: string } = {}) =>
  handler(req(path, { method, cookie: p?.cookie, body, ...extra }));

async function listed(p: Person): Promise<Listed> {
  const res = await projectList(req("/api/projects", { cookie: p.cookie }));
  expect(res.status).toBe(200);
  return (await res.json()) as Listed;
}

/** A new project of `p`, as the browser makes it: a fresh id, sealed under p's key. */
async function created(p: Person, name: string, instructions = ""): Promise<string> {
  const project_id = crypto.randomUUID();
  const res = await call(projectCreate, "POST", "/api/projects", p, { project_id, sealed: await sealProject(p.key, p.id, project_id, { name, instructions }) });
  expect(res.status).toBe(201);
  return project_id;
}

async function savedChat(p: Person, question: string): Promise<string> {
  const chatId = crypto.randomUUID();
  const body = await sealTurn({ key: p.key, userId: p.id, chatId, create: true, firstPosition: 0, messages: [{ role: "user", content: question }], title: question });
  expect((await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body }))).status).toBe(200);
  return chatId;
}

const move = (p: Person, chat_id: string, project_id: string | null) => call(projectMoveChat, "PATCH", "/api/projects/chat", p, { chat_id, project_id });

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-projects@example.com")).id);
  bob = await withVault((await createTestUser("bob-projects@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

describe("/api/projects", () => {
  it("creates, lists, renames and keeps only ciphertext of the name and instructions", async () => {
    const nameCanary = `project-canary-${crypto.randomUUID()}`;
    const instructionsCanary = `instructions-canary-${crypto.randomUUID()}`;
    const id = await created(alice, nameCanary, instructionsCanary);
    const list = await listed(alice);
    const entry = list.projects.find((p) => p.project_id === id)!;
    expect(await openProject(alice.key, alice.id, id, entry.sealed)).toEqual({ name: nameCanary, instructions: instructionsCanary });
    expect((await listed(bob)).projects.some((p) => p.project_id === id)).toBe(false);

    const dump = await dumpDatabase(t.db);
    for (const secret of [nameCanary, instructionsCanary]) {
      for (const form of [secret, Buffer.from(secret).toString("base64"), Buffer.from(secret).toString("hex")]) expect(dump).not.toContain(form);
    }
    const row = await t.db.project.findUniqueOrThrow({ where: { userId_id: { userId: alice.id, id } } });
    expect(row.sealed[0]).toBe(3);
    // Stored to the minute: the row's time says no more than that.
    expect(row.createdAt.getUTCSeconds()).toBe(0);

    const renamed = await sealProject(alice.key, alice.id, id, { name: "Renamed", instructions: "Answer in French." });
    expect((await call(projectUpdate, "PATCH", "/api/projects", alice, { project_id: id, sealed: renamed })).status).toBe(200);
    const after = (await listed(alice)).projects.find((p) => p.project_id === id)!;
    expect(await openProject(alice.key, alice.id, id, after.sealed)).toEqual({ name: "Renamed", instructions: "Answer in French." });
  });

  it("answers 401 to visitors and 403 to another origin", async () => {
    const id = crypto.randomUUID();
    const sealed = await sealProject(alice.key, alice.id, id, { name: "x", instructions: "" });
    for (const [handler, method, path, body] of [
      [projectList, "GET", "/api/projects", undefined],
      [projectCreate, "POST", "/api/projects", { project_id: id, sealed }],
      [projectUpdate, "PATCH", "/api/projects", { project_id: id, sealed }],
      [projectDelete, "DELETE", "/api/projects", { project_id: id }],
      [projectMoveChat, "PATCH", "/api/projects/chat", { chat_id: id, project_id: null }],
    ] as const) {
      const visitor = await call(handler, method, path, null, body);
      expect(visitor.status).toBe(401);
      expect(await visitor.json()).toEqual({ error: expect.any(String) });
      if (method !== "GET") expect((await call(handler, method, path, alice, body, { origin: "https://evil.example" })).status).toBe(403);
    }
  });

  it("answers another user's project exactly as an unknown one: 404, nothing changed", async () => {
    const mine = await created(alice, "Alice's project", "Alice's instructions");
    const unknown = crypto.randomUUID();
    for (const id of [mine, unknown]) {
      const sealed = await sealProject(bob.key, bob.id, id, { name: "Bob was here", instructions: "" });
      const update = await call(projectUpdate, "PATCH", "/api/projects", bob, { project_id: id, sealed });
      expect(update.status).toBe(404);
      expect(await update.json()).toEqual({ error: "Project not found." });
      const del = await call(projectDelete, "DELETE", "/api/projects", bob, { project_id: id });
      expect(del.status).toBe(404);
      expect(await del.json()).toEqual({ error: "Project not found." });
    }
    // Bob's chat cannot go into Alice's project; Bob may use the same id for a project of his own.
    const bobsChat = await savedChat(bob, "Bob's chat");
    const moved = await move(bob, bobsChat, mine);
    expect(moved.status).toBe(404);
    expect(await moved.json()).toEqual({ error: "Project not found." });
    const same = await call(projectCreate, "POST", "/api/projects", bob, { project_id: mine, sealed: await sealProject(bob.key, bob.id, mine, { name: "Bob's", instructions: "" }) });
    expect(same.status).toBe(201);
    const entry = (await listed(alice)).projects.find((p) => p.project_id === mine)!;
    expect(await openProject(alice.key, alice.id, mine, entry.sealed)).toEqual({ name: "Alice's project", instructions: "Alice's instructions" });
  });

  it("moves chats in and out; deleting a project keeps its chats, moved out", async () => {
    const project = await created(alice, "Moving");
    const chatA = await savedChat(alice, "Chat A");
    const chatB = await savedChat(alice, "Chat B");
    expect((await move(alice, chatA, project)).status).toBe(200);
    expect((await move(alice, chatB, project)).status).toBe(200);
    expect((await listed(alice)).chats.filter((c) => c.project_id === project).map((c) => c.chat_id).sort()).toEqual([chatA, chatB].sort());
    expect((await move(alice, chatB, null)).status).toBe(200);
    expect((await listed(alice)).chats.filter((c) => c.project_id === project).map((c) => c.chat_id)).toEqual([chatA]);
    // Another user's chat, or an unknown one: 404 as "Chat not found.".
    const bobsChat = await savedChat(bob, "Bob's other chat");
    for (const chat of [bobsChat, crypto.randomUUID()]) {
      const res = await move(alice, chat, project);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Chat not found." });
    }

    const del = await call(projectDelete, "DELETE", "/api/projects", alice, { project_id: project });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ ok: true, chats_moved: 1 });
    const after = await listed(alice);
    expect(after.projects.some((p) => p.project_id === project)).toBe(false);
    expect(after.chats.some((c) => c.chat_id === chatA)).toBe(false);
    expect(await t.db.chat.count({ where: { userId: alice.id, id: { in: [chatA, chatB] } } })).toBe(2);
  });

  it("refuses bad bodies with 400 and oversize ones with 413", async () => {
    const id = crypto.randomUUID();
    const sealed = await sealProject(alice.key, alice.id, id, { name: "Good", instructions: "" });
    const bad: unknown[] = [
      { project_id: id, sealed: Buffer.from("A project name, in clear").toString("base64") },
      { project_id: id, sealed: "A project name" },
      { project_id: id.toUpperCase(), sealed },
      { project_id: "not-a-uuid", sealed },
      { project_id: id, sealed, name: "Good" },
      { project_id: id },
      {},
    ];
    for (const body of bad) {
      expect((await call(projectCreate, "POST", "/api/projects", alice, body)).status).toBe(400);
      expect((await call(projectUpdate, "PATCH", "/api/projects", alice, body)).status).toBe(400);
    }
    expect((await call(projectDelete, "DELETE", "/api/projects", alice, { project_id: id, extra: 1 })).status).toBe(400);
    expect((await call(projectMoveChat, "PATCH", "/api/projects/chat", alice, { chat_id: id })).status).toBe(400);
    expect((await call(projectMoveChat, "PATCH", "/api/projects/chat", alice, { chat_id: "x", project_id: null })).status).toBe(400);
    // Instructions beyond the cap are cut in the browser before sealing (the worst case still fits the 32 KiB
    // bucket); what a client seals bigger (the next bucket, 64 KiB) is refused by size.
    const fits = await sealProject(alice.key, alice.id, id, { name: "n".repeat(500), instructions: "\u0001".repeat(PROJECT_INSTRUCTIONS_MAX_CHARS + 500) });
    expect((await call(projectCreate, "POST", "/api/projects", alice, { project_id: id, sealed: fits })).status).toBe(201);
    const { encryptField, toBase64 } = await import("@/lib/browser/vault/crypto");
    const tooBig = toBase64(await encryptField(alice.key, { field: "project", userId: alice.id, projectId: id }, JSON.stringify({ name: "big", instructions: "x".repeat(40_000) })));
    expect((await call(projectUpdate, "PATCH", "/api/projects", alice, { project_id: id, sealed: tooBig })).status).toBe(413);
    const huge = JSON.stringify({ project_id: id, sealed: "A".repeat(60_000) });
    expect((await call(projectCreate, "POST", "/api/projects", alice, undefined, { raw: huge })).status).toBe(413);
    // The same id again: 409 (a retried create).
    expect((await call(projectCreate, "POST", "/api/projects", alice, { project_id: id, sealed })).status).toBe(409);
  });

  it(`stops at ${MAX_PROJECTS} projects (409), and needs a vault (409)`, async () => {
    const carol = await withVault((await createTestUser("carol-projects@example.com")).id);
    for (let i = 0; i < MAX_PROJECTS; i++) await created(carol, `Project ${i}`);
    const id = crypto.randomUUID();
    const over = await call(projectCreate, "POST", "/api/projects", carol, { project_id: id, sealed: await sealProject(carol.key, carol.id, id, { name: "One too many", instructions: "" }) });
    expect(over.status).toBe(409);
    expect(await over.json()).toEqual({ error: `You can have at most ${MAX_PROJECTS} projects. Delete one to make room.` });
    expect((await listed(carol)).projects).toHaveLength(MAX_PROJECTS);

    const dave = await createTestUser("dave-projects@example.com");
    const cookie = await sessionCookieFor(dave.id);
    const noVault = await projectCreate(req("/api/projects", { method: "POST", cookie, body: { project_id: id, sealed: await sealProject(carol.key, dave.id, id, { name: "x", instructions: "" }) } }));
    expect(noVault.status).toBe(409);
  });

  it("account deletion deletes the user's projects", async () => {
    const erin = await withVault((await createTestUser("erin-projects@example.com")).id);
    const project = await created(erin, "Erin's project");
    const chat = await savedChat(erin, "Erin's chat");
    expect((await move(erin, chat, project)).status).toBe(200);
    expect((await deleteUser(req("/api/delete_user", { method: "POST", cookie: erin.cookie, body: {} }))).status).toBe(200);
    expect(await t.db.project.count({ where: { userId: erin.id } })).toBe(0);
    expect(await t.db.chat.count({ where: { userId: erin.id } })).toBe(0);
  });

  it("a key rotation (docs/issues.md #21) seals projects again under the new key; the old key opens none", async () => {
    const frank = await withVault((await createTestUser("frank-projects@example.com")).id);
    const id = await created(frank, "Rotated project", "Keep answers short.");
    const device = await unlock(frank);
    const api = apiOverRoutes(frank);
    const current = { userId: frank.id, raw: frank.raw, key: frank.key, tracker: device.tracker };
    const draft = await draftRotation(frank.id, 1, generateVaultKey(), null);
    await startRotation(api, current, draft);
    await completeRotation(api, current, draft.next, 1);
    const entry = (await listed(frank)).projects.find((p) => p.project_id === id)!;
    expect(await openProject(await importVaultKey(draft.next), frank.id, id, entry.sealed)).toEqual({ name: "Rotated project", instructions: "Keep answers short." });
    await expect(openProject(frank.key, frank.id, id, entry.sealed)).rejects.toThrow();
  });
});
