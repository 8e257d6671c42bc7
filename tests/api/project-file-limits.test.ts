import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as projectCreate } from "@/app/api/projects/route";
import { resetConfigForTests } from "../helpers/process-state";
import { createProjectFile, resealProjectFile } from "@/lib/server/db/project-files";
import { sealProject } from "@/lib/browser/vault/projects";
import { sealProjectFile } from "@/lib/browser/vault/project-files";
import { splitPassages } from "@/lib/browser/knowledge/passages";
import { fromBase64 } from "@/lib/browser/vault/crypto";
import { AppError } from "@/lib/shared/errors";
import { MAX_FILES_PER_PROJECT, PROJECT_FILES_LIMIT_BYTES } from "@/lib/shared/projects/knowledge-limits";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { req, withVault, type Person } from "../helpers/vault-api";
import { apiOverRoutes } from "../helpers/api-over-routes";

/**
 * The plan's limit per project holds for every write of a project file (docs/issues.md #54): a re-seal counts
 * its new size net of the old. Through the real handlers; run on PGlite and, by scripts/test.sh, on PostgreSQL.
 */
let t: TestDb;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

async function person(email: string): Promise<Person> {
  return withVault((await createTestUser(email)).id);
}

async function project(p: Person): Promise<string> {
  const id = crypto.randomUUID();
  const res = await projectCreate(req("/api/projects", { method: "POST", cookie: p.cookie, body: { project_id: id, sealed: await sealProject(p.key, p.id, id, { name: "Docs", instructions: "" }) } }));
  expect(res.status).toBe(201);
  return id;
}

const seal = (p: Person, projectId: string, fileId: string, text: string) =>
  sealProjectFile(p.key, p.id, projectId, fileId, { name: "f.txt", type: "text", passages: splitPassages(text) });

/** 3.5 MB of text: the 4 MiB bucket. */
const BIG = "word ".repeat(700_000);
const status = (e: unknown) => (e instanceof AppError ? e.status : -1);

async function storedBytes(p: Person, projectId: string): Promise<number> {
  const { files } = await apiOverRoutes(p)("projectFileList");
  return files.filter((f) => f.project_id === projectId).reduce((n, f) => n + f.bytes, 0);
}

describe("project files: the plan's limit per project on re-seal", () => {
  it("a re-seal that would take the project past the limit is a 409 and leaves the file as it was", async () => {
    const alice = await person("alice-limits@example.com");
    const api = apiOverRoutes(alice);
    const projectId = await project(alice);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const fileId = crypto.randomUUID();
      await api("projectFileCreate", { body: { project_id: projectId, file_id: fileId, sealed: await seal(alice, projectId, fileId, `small ${i}`) } });
      ids.push(fileId);
    }
    // One small file re-sealed at 4 MiB still fits the Free plan's 5 MB...
    await api("projectFileReseal", { body: { file_id: ids[0]!, sealed: await seal(alice, projectId, ids[0]!, BIG) } });
    const before = await storedBytes(alice, projectId);
    expect(before).toBeLessThanOrEqual(PROJECT_FILES_LIMIT_BYTES.Free);
    // ...a second does not.
    const refused = await api("projectFileReseal", { body: { file_id: ids[1]!, sealed: await seal(alice, projectId, ids[1]!, BIG) } }).catch((e) => e);
    expect(status(refused)).toBe(409);
    expect((refused as Error).message).toContain("5 MB");
    expect(await storedBytes(alice, projectId)).toBe(before);
    // The big file re-sealed at its own size (what a key rotation sends) is accepted.
    await api("projectFileReseal", { body: { file_id: ids[0]!, sealed: await seal(alice, projectId, ids[0]!, BIG) } });
    expect(await storedBytes(alice, projectId)).toBe(before);
  });

  it("a re-seal no larger than the stored file passes even over the limit (a rotation after a downgrade)", async () => {
    const bob = await person("bob-limits@example.com");
    const projectId = await project(bob);
    const fileId = crypto.randomUUID();
    await apiOverRoutes(bob)("projectFileCreate", { body: { project_id: projectId, file_id: fileId, sealed: await seal(bob, projectId, fileId, "a note") } });
    const again = fromBase64(await seal(bob, projectId, fileId, "a note"));
    await expect(resealProjectFile(bob.id, fileId, again, 1)).resolves.toBeUndefined();
    const bigger = fromBase64(await seal(bob, projectId, fileId, "x".repeat(10_000)));
    expect(status(await resealProjectFile(bob.id, fileId, bigger, 1).catch((e) => e))).toBe(409);
    expect(status(await resealProjectFile(bob.id, crypto.randomUUID(), again, 1).catch((e) => e))).toBe(404);
  });
});

/**
 * Concurrent uploads to one project (docs/issues.md #54): on PostgreSQL at READ COMMITTED each statement saw
 * the others' rows uncommitted and passed; PGlite runs one transaction at a time, so there it checks the result.
 * The server cannot open a ciphertext, so one sealed body serves every file id.
 */
describe("project files: the limits per project under concurrent uploads", () => {
  const settle = (calls: Promise<unknown>[]) => Promise.all(calls.map((c) => c.then(() => 201, status)));

  it("8 concurrent 4 MiB uploads to a Free project: one stored, seven 409", async () => {
    const carol = await person("carol-limits@example.com");
    const projectId = await project(carol);
    const sealed = fromBase64(await seal(carol, projectId, crypto.randomUUID(), BIG));
    // Straight to the data layer: through the handlers, parsing each 5.6 MB body on the one thread spaces them out.
    const limitBytes = PROJECT_FILES_LIMIT_BYTES.Free;
    const results = await settle(Array.from({ length: 8 }, () => createProjectFile({ userId: carol.id, projectId, fileId: crypto.randomUUID(), sealed, limitBytes })));
    expect(results.filter((s) => s === 201)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(7);
    expect(await storedBytes(carol, projectId)).toBeLessThanOrEqual(PROJECT_FILES_LIMIT_BYTES.Free);
  });

  it("20 concurrent small uploads to a project at 45 files: it ends at 50", async () => {
    const dave = await person("dave-limits@example.com");
    const api = apiOverRoutes(dave);
    const projectId = await project(dave);
    const sealed = await seal(dave, projectId, crypto.randomUUID(), "a line");
    for (let i = 0; i < 45; i++) await api("projectFileCreate", { body: { project_id: projectId, file_id: crypto.randomUUID(), sealed } });
    const results = await settle(Array.from({ length: 20 }, () => api("projectFileCreate", { body: { project_id: projectId, file_id: crypto.randomUUID(), sealed } })));
    expect(results.filter((s) => s === 201)).toHaveLength(MAX_FILES_PER_PROJECT - 45);
    expect(results.filter((s) => s === 409)).toHaveLength(20 - (MAX_FILES_PER_PROJECT - 45));
    expect((await api("projectFileList")).files.filter((f) => f.project_id === projectId)).toHaveLength(MAX_FILES_PER_PROJECT);
  });

  it("concurrent re-seals of a project's small files at 4 MiB: only one fits the Free plan", async () => {
    const erin = await person("erin-limits@example.com");
    const api = apiOverRoutes(erin);
    const projectId = await project(erin);
    const small = await seal(erin, projectId, crypto.randomUUID(), "a line");
    const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
    for (const fileId of ids) await api("projectFileCreate", { body: { project_id: projectId, file_id: fileId, sealed: small } });
    const big = fromBase64(await seal(erin, projectId, crypto.randomUUID(), BIG));
    const results = await settle(ids.map((fileId) => resealProjectFile(erin.id, fileId, big, PROJECT_FILES_LIMIT_BYTES.Free)));
    expect(results.filter((s) => s === 201)).toHaveLength(1);
    expect(await storedBytes(erin, projectId)).toBeLessThanOrEqual(PROJECT_FILES_LIMIT_BYTES.Free);
  });
});
