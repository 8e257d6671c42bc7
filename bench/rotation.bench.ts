/**
 * "Rotate vault key" for a user with N saved chats (docs/issues.md #21): the browser's rotation code
 * (lib/browser/vault/rotation.ts: open each chat under the old key, check its header, seal it again, store in
 * batches, finish) through the real route handlers, in Node (the same WebCrypto code as the browser).
 *
 * References measured in the same run, interleaved with the rotation, 3 rounds:
 * - SQL: read every message of the user and write each one back (one SELECT, one UPDATE), the database's
 *   floor for touching the same rows;
 * - crypto: decrypt and encrypt every message and title with the vault key, no I/O, the CPU floor.
 * The passphrase wrap of the new key (Argon2id, ~0.5 s) is left out of the timing: it is the same for
 * any N (bench/vault.bench.ts measures it).
 *
 * Run: `npx tsx --conditions=react-server bench/rotation.bench.ts [N]` (add `DATABASE_URL=…` for PostgreSQL)
 */
import { throwawayDatabase } from "./throwaway-db";

const N = Number(process.argv[2] ?? 1000);
const ROUNDS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const words = (n: number) => Array.from({ length: n }, (_, i) => ["harbour", "granite", "ferry", "tide", "lantern", "quay"][i % 6]).join(" ");

async function main() {
  const database = await throwawayDatabase();

  const { closeDb, getDb } = await import("@/lib/server/db/client");
  const { createSession } = await import("@/lib/server/db/sessions");
  const { sessionCookieName } = await import("@/lib/server/auth/cookies");
  const { POST: chatSave } = await import("@/app/api/ns/chat_save/route");
  const { decryptField, encryptField, generateVaultKey, importVaultKey } = await import("@/lib/browser/vault/crypto");
  const { recoveryMethod, sealTurn } = await import("@/lib/browser/vault/seal");
  const { IntegrityTracker } = await import("@/lib/browser/vault/integrity-tracker");
  const { completeRotation, draftRotation, startRotation } = await import("@/lib/browser/vault/rotation");
  const { apiOverRoutes } = await import("../tests/helpers/api-over-routes");

  const db = await getDb();
  const user = await db.user.create({ data: { email: "rotation-bench@example.com" } });
  const cookie = `${sessionCookieName()}=${(await createSession(user.id)).token}`;
  const api = apiOverRoutes({ cookie });
  let raw = generateVaultKey();
  await db.vault.create({ data: { userId: user.id } });
  const recovery = await recoveryMethod(raw, user.id);
  await db.vaultMethod.create({ data: { id: recovery.method.id, userId: user.id, kind: "recovery", wrappedKey: Buffer.from(recovery.method.wrapped_key, "base64"), kdf: recovery.method.kdf } });
  const seen = { manifest: 0, chats: {} as Record<string, number> };
  const storage = {
    read: async () => seen,
    write: async (s: typeof seen) => {
      Object.assign(seen, s);
    },
  };
  let tracker = await IntegrityTracker.start(raw, user.id, storage, 0);
  await tracker.adoptManifest(null);
  await tracker.adoptList([]);
  let key = await importVaultKey(raw);

  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const chatId = crypto.randomUUID();
    const messages = [
      { role: "user" as const, content: `Question ${i}: ${words(40)}` },
      { role: "assistant" as const, content: `Answer ${i}: ${words(120)}` },
      { role: "user" as const, content: `Follow-up ${i}: ${words(10)}` },
      { role: "assistant" as const, content: `Second answer ${i}: ${words(100)}` },
    ];
    const body = await sealTurn({ key, userId: user.id, chatId, create: true, firstPosition: 0, messages, title: `Chat ${i}` });
    const integrity = await tracker.forWrite(chatId, true, { from: 0, messages: body.messages, title_ciphertext: body.title_ciphertext });
    const res = await chatSave(new Request("http://127.0.0.1:3000/api/ns/chat_save", {
      method: "POST",
      headers: { Origin: "http://127.0.0.1:3000", Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ ...body, integrity: integrity.body }),
    }));
    if (res.status !== 200) throw new Error(`seed failed: ${res.status} ${await res.text()}`);
    await integrity.commit();
  }
  console.log(`seeded ${N} chats × 4 messages in ${((performance.now() - t0) / 1000).toFixed(1)} s (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`);

  const sqlMs: number[] = [];
  const cryptoMs: number[] = [];
  const rotateMs: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let t = performance.now();
    await db.$queryRaw`SELECT content_ciphertext FROM messages WHERE user_id = ${user.id}`;
    await db.$executeRaw`UPDATE messages SET content_ciphertext = content_ciphertext WHERE user_id = ${user.id}`;
    sqlMs.push(performance.now() - t);

    const rows = await db.message.findMany({ where: { userId: user.id }, select: { chatId: true, position: true, role: true, contentCiphertext: true } });
    t = performance.now();
    for (const r of rows) {
      const ctx = { field: "content" as const, userId: user.id, chatId: r.chatId, position: r.position, role: r.role };
      await encryptField(key, ctx, await decryptField(key, ctx, r.contentCiphertext));
    }
    cryptoMs.push(performance.now() - t);

    const generation = (await db.vault.findUniqueOrThrow({ where: { userId: user.id } })).keyGeneration + 1;
    const next = generateVaultKey();
    const draft = await draftRotation(user.id, generation, next, null);
    t = performance.now();
    const current = { userId: user.id, raw, key, tracker };
    await startRotation(api, current, draft);
    await completeRotation(api, current, next, generation);
    rotateMs.push(performance.now() - t);
    raw = next;
    key = await importVaultKey(raw);
    tracker = await IntegrityTracker.start(raw, user.id, storage, generation);
    console.log(`round ${round}: SQL ${sqlMs.at(-1)!.toFixed(0)} ms, crypto ${cryptoMs.at(-1)!.toFixed(0)} ms, rotation ${rotateMs.at(-1)!.toFixed(0)} ms`);
  }
  const r = median(rotateMs);
  console.log(
    `\n${N} chats (${N * 4} messages), medians of ${ROUNDS}: rotation ${(r / 1000).toFixed(2)} s; SQL floor ${median(sqlMs).toFixed(0)} ms (×${(r / median(sqlMs)).toFixed(1)}); crypto floor ${median(cryptoMs).toFixed(0)} ms (×${(r / median(cryptoMs)).toFixed(1)})`,
  );
  await closeDb();
  await database.drop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
