import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as projectCreate, DELETE as projectDelete } from "@/app/api/projects/route";
import { resetConfigForTests } from "../helpers/process-state";
import { sealProject } from "@/lib/browser/vault/projects";
import { openProjectFile, sealProjectFile } from "@/lib/browser/vault/project-files";
import { splitPassages } from "@/lib/browser/knowledge/passages";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { completeRotation, draftRotation, startRotation } from "@/lib/browser/vault/rotation";
import { AppError } from "@/lib/shared/errors";
import { PROJECT_FILES_LIMIT_BYTES } from "@/lib/shared/projects/knowledge-limits";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { dumpDatabase } from "../helpers/db-dump";
import { req, withVault, type Person } from "../helpers/vault-api";
import { apiOverRoutes } from "../helpers/api-over-routes";
import { unlock } from "../helpers/integrity-device";

/**
 * Project files (docs/issues.md #41, "Project knowledge") through the real handlers and database. The test plays the
 * browser: it splits and seals each file with lib/browser and opens what comes back.
 */
let t: TestDb;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-files@example.com")).id);
  bob = await withVault((await createTestUser("bob-files@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

async function project(p: Person): Promise<string> {
  const id = crypto.randomUUID();
  const res = await projectCreate(req("/api/projects", { method: "POST", cookie: p.cookie, body: { project_id: id, sealed: await sealProject(p.key, p.id, id, { name: "Docs", instructions: "" }) } }));
  expect(res.status).toBe(201);
  return id;
}

async function addFile(p: Person, projectId: string, name: string, text: string) {
  const fileId = crypto.randomUUID();
  const sealed = await sealProjectFile(p.key, p.id, projectId, fileId, { name, type: "text", passages: splitPassages(text) });
  await apiOverRoutes(p)("projectFileCreate", { body: { project_id: projectId, file_id: fileId, sealed } });
  return fileId;
}

const status = (e: unknown) => (e instanceof AppError ? e.status : -1);

describe("/api/projects/files", () => {
  it("stores a file sealed, lists its size, opens it back; no text readable at rest; another user gets 404", async () => {
    const canary = `file-canary-${crypto.randomUUID()}`;
    const projectId = await project(alice);
    const fileId = await addFile(alice, projectId, "notes.md", `# Notes\n\nThe boat leaves at nine ${canary}.`);
    const api = apiOverRoutes(alice);
    const list = await api("projectFileList");
    expect(list.limit_bytes).toBe(PROJECT_FILES_LIMIT_BYTES.Free);
    expect(list.files).toEqual([{ file_id: fileId, project_id: projectId, bytes: expect.any(Number), created_at: expect.any(String) }]);
    const got = await api("projectFileGet", { params: { fileId } });
    const opened = await openProjectFile(alice.key, alice.id, projectId, fileId, got.sealed);
    expect(opened.name).toBe("notes.md");
    expect(opened.passages).toEqual([{ section: "section “Notes”", text: `# Notes\n\nThe boat leaves at nine ${canary}.` }]);
    // Bound to its project: the same ciphertext does not open as another project's file.
    await expect(openProjectFile(alice.key, alice.id, crypto.randomUUID(), fileId, got.sealed)).rejects.toThrow();

    const dump = await dumpDatabase(t.db);
    for (const form of [canary, Buffer.from(canary).toString("base64"), Buffer.from(canary).toString("hex"), "notes.md"]) expect(dump).not.toContain(form);

    const asBob = apiOverRoutes(bob);
    expect(status(await asBob("projectFileGet", { params: { fileId } }).catch((e) => e))).toBe(404);
    expect(status(await asBob("projectFileDelete", { body: { file_id: fileId } }).catch((e) => e))).toBe(404);
    expect((await asBob("projectFileList")).files).toEqual([]);
    // Into another user's project: 404, as an unknown project.
    const sealed = await sealProjectFile(bob.key, bob.id, projectId, crypto.randomUUID(), { name: "x", type: "text", passages: [] });
    expect(status(await asBob("projectFileCreate", { body: { project_id: projectId, file_id: crypto.randomUUID(), sealed } }).catch((e) => e))).toBe(404);

    await api("projectFileDelete", { body: { file_id: fileId } });
    expect((await api("projectFileList")).files).toEqual([]);
  });

  it("refuses a file past the plan's limit per project (409), and files go with their project", async () => {
    const projectId = await project(alice);
    const big = "word ".repeat(700_000); // 3.5 MB of text: the 4 MiB bucket
    await addFile(alice, projectId, "a.txt", big);
    const refused = await addFile(alice, projectId, "b.txt", big).catch((e) => e);
    expect(status(refused)).toBe(409);
    expect((refused as Error).message).toContain("5 MB");
    const api = apiOverRoutes(alice);
    expect((await api("projectFileList")).files.filter((f) => f.project_id === projectId)).toHaveLength(1);
    const res = await projectDelete(req("/api/projects", { method: "DELETE", cookie: alice.cookie, body: { project_id: projectId } }));
    expect(res.status).toBe(200);
    expect((await api("projectFileList")).files.filter((f) => f.project_id === projectId)).toEqual([]);
  });

  it("a key rotation seals the files again under the new key", async () => {
    const carol = await withVault((await createTestUser("carol-files@example.com")).id);
    const projectId = await project(carol);
    const fileId = await addFile(carol, projectId, "plan.txt", "Sow beans in May.");
    const api = apiOverRoutes(carol);
    const device = await unlock(carol);
    const current = { userId: carol.id, raw: carol.raw, key: carol.key, tracker: device.tracker };
    const draft = await draftRotation(carol.id, 1, generateVaultKey(), null);
    await startRotation(api, current, draft);
    await completeRotation(api, current, draft.next, 1);
    const { sealed } = await api("projectFileGet", { params: { fileId } });
    expect((await openProjectFile(await importVaultKey(draft.next), carol.id, projectId, fileId, sealed)).passages[0]!.text).toBe("Sow beans in May.");
    await expect(openProjectFile(carol.key, carol.id, projectId, fileId, sealed)).rejects.toThrow();
  });
});
