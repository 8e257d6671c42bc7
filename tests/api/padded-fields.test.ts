import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as projectCreate, PATCH as projectUpdate } from "@/app/api/projects/route";
import { POST as memoryPut } from "@/app/api/memory/route";
import { PATCH as fileReseal, POST as fileCreate } from "@/app/api/projects/files/route";
import { resetConfigForTests } from "../helpers/process-state";
import { sealProject } from "@/lib/browser/vault/projects";
import { sealMemory } from "@/lib/browser/vault/memory";
import { sealProjectFile } from "@/lib/browser/vault/project-files";
import { chatIntegritySchema, vaultRotationStartBodySchema } from "@/lib/shared/vault/schemas";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser } from "../helpers/auth";
import { req, withVault, type Person } from "../helpers/vault-api";

/**
 * Fields created after padding take only padded ciphertext, format 3 (docs/issues.md #54): an unpadded format 2
 * one would let a client store exact lengths. Through the real handlers; the browser's own seals pass.
 */
let t: TestDb;
let alice: Person;

beforeAll(async () => {
  t = await setupTestDb();
  resetConfigForTests();
  alice = await withVault((await createTestUser("alice-padded@example.com")).id);
});

afterAll(async () => {
  await t.cleanup();
  resetConfigForTests();
});

/** A format 2 field as lib/browser/vault/crypto.ts wrote them before padding: 0x02, IV, ciphertext, tag. */
const unpadded = (plaintextBytes: number) => Buffer.concat([Buffer.from([2]), Buffer.alloc(12 + plaintextBytes + 16, 9)]).toString("base64");

type Handler = (request: Request) => Promise<Response>;
const call = (handler: Handler, method: string, path: string, body: unknown) => handler(req(path, { method, cookie: alice.cookie, body }));

async function refusedAsUnpadded(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toContain("sealed: must be a padded vault ciphertext (format 3)");
}

describe("padded fields only (format 3)", () => {
  it("/api/projects, /api/memory and /api/projects/files answer a format 2 field with 400; the browser's seals pass", async () => {
    const projectId = crypto.randomUUID();
    await refusedAsUnpadded(await call(projectCreate as Handler, "POST", "/api/projects", { project_id: projectId, sealed: unpadded(20) }));
    const sealed = await sealProject(alice.key, alice.id, projectId, { name: "Docs", instructions: "" });
    expect((await call(projectCreate as Handler, "POST", "/api/projects", { project_id: projectId, sealed })).status).toBe(201);
    await refusedAsUnpadded(await call(projectUpdate as Handler, "PATCH", "/api/projects", { project_id: projectId, sealed: unpadded(20) }));
    expect((await call(projectUpdate as Handler, "PATCH", "/api/projects", { project_id: projectId, sealed })).status).toBe(200);

    await refusedAsUnpadded(await call(memoryPut as Handler, "POST", "/api/memory", { sealed: unpadded(40), version: 1, base_version: 0 }));
    const memory = await sealMemory(alice.key, alice.id, { version: 1, enabled: true, facts: [] });
    expect((await call(memoryPut as Handler, "POST", "/api/memory", { sealed: memory, version: 1, base_version: 0 })).status).toBe(200);

    const fileId = crypto.randomUUID();
    await refusedAsUnpadded(await call(fileCreate as Handler, "POST", "/api/projects/files", { project_id: projectId, file_id: fileId, sealed: unpadded(300) }));
    const file = await sealProjectFile(alice.key, alice.id, projectId, fileId, { name: "a.txt", type: "text", passages: [] });
    expect((await call(fileCreate as Handler, "POST", "/api/projects/files", { project_id: projectId, file_id: fileId, sealed: file })).status).toBe(201);
    await refusedAsUnpadded(await call(fileReseal as Handler, "PATCH", "/api/projects/files", { file_id: fileId, sealed: unpadded(300) }));
    expect((await call(fileReseal as Handler, "PATCH", "/api/projects/files", { file_id: fileId, sealed: file })).status).toBe(200);
  });

  it("chat headers and the manifest take only format 3; a rotation's next key stays a format 2 wrap", () => {
    const padded = Buffer.concat([Buffer.from([3]), Buffer.alloc(12 + 256 + 16, 9)]).toString("base64");
    const integrity = (header: string, manifest: string) => ({ header_ciphertext: header, base_version: 0, manifest: { ciphertext: manifest, base_version: 0 } });
    expect(chatIntegritySchema.safeParse(integrity(padded, padded)).success).toBe(true);
    expect(chatIntegritySchema.safeParse(integrity(unpadded(60), padded)).success).toBe(false);
    expect(chatIntegritySchema.safeParse(integrity(padded, unpadded(60))).success).toBe(false);
    const method = { id: crypto.randomUUID(), kind: "recovery", wrapped_key: unpadded(32), kdf: { salt: "AAAA" } };
    expect(vaultRotationStartBodySchema.safeParse({ generation: 1, next_key: unpadded(32), methods: [method] }).success).toBe(true);
  });
});
