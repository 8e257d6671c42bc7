import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as vaultCreate } from "@/app/api/vault/route";
import { DELETE as methodDelete } from "@/app/api/vault/methods/route";
import { getConfig } from "@/lib/server/config";
import { shredUserData } from "@/lib/server/db/queries";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { passphraseMethod, recoveryMethod } from "@/lib/browser/vault/seal";
import { setupTestDb, type TestDb, tableFilesHold } from "./setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";

/**
 * The vault's data layer through its routes (docs/issues.md #8): physical removal of deleted key rows from the
 * database files.
 */
let t: TestDb;

beforeAll(async () => {
  t = await setupTestDb();
});

afterAll(async () => {
  await t.cleanup();
});

function req(p: string, init: { method?: string; cookie: string; body?: unknown }) {
  const origin = new URL(getConfig().APP_URL).origin;
  const headers: Record<string, string> = { Origin: origin, Cookie: init.cookie };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  return new Request(`${origin}${p}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

async function newVault(userId: string, cookie: string) {
  const raw = generateVaultKey();
  const methods = [await passphraseMethod(raw, userId, "amber kettles hum beside lighthouses"), (await recoveryMethod(raw, userId)).method];
  const res = await vaultCreate(req("/api/vault", { method: "POST", cookie, body: { methods } }));
  expect(res.status).toBe(201);
  return { key: await importVaultKey(raw), methods };
}

/** Every file under the PGlite data folder, concatenated (what a stolen disk image would hold). */
function databaseFiles(): Buffer {
  const root = path.join(t.dataDir, "pglite");
  const parts: Buffer[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) parts.push(fs.readFileSync(p));
    }
  };
  walk(root);
  return Buffer.concat(parts);
}

describe("deleted keys are physically removed", () => {
  it("refuses to remove the last method; a removed method's wrap and a deleted account's wraps leave the database files", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const { methods } = await newVault(user.id, cookie);
    const [passphrase, recovery] = methods as [(typeof methods)[0], (typeof methods)[0]];
    const wrapOf = (m: (typeof methods)[0]) => Buffer.from(m.wrapped_key, "base64");
    const pglite = t.target.kind === "pglite";
    // Written through to the files (a checkpoint flushes the buffers): the search can find them.
    if (pglite) {
      await t.db.$executeRawUnsafe("CHECKPOINT");
      expect(tableFilesHold(t, wrapOf(passphrase))).toBe(true);
      expect(databaseFiles().includes(wrapOf(recovery))).toBe(true);
    }

    const del = (id: string) => methodDelete(req("/api/vault/methods", { method: "DELETE", cookie, body: { id } }));
    expect((await del(passphrase.id)).status).toBe(200);
    expect((await del(recovery.id)).status).toBe(400);
    expect(await t.db.vaultMethod.count({ where: { userId: user.id } })).toBe(1);
    if (pglite) {
      await t.db.$executeRawUnsafe("CHECKPOINT");
      expect(tableFilesHold(t, wrapOf(passphrase))).toBe(false);
      expect(tableFilesHold(t, wrapOf(recovery))).toBe(true);
    }

    await shredUserData(user.id);
    expect(await t.db.vaultMethod.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.vault.count({ where: { userId: user.id } })).toBe(0);
    if (pglite) {
      await t.db.$executeRawUnsafe("CHECKPOINT");
      expect(tableFilesHold(t, wrapOf(recovery))).toBe(false);
    }
  });
});

