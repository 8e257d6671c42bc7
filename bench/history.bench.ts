/**
 * History load time for a user with 1,000 saved chats (accounts issue).
 *
 * Creates a user with N saved vault chats (each a 4-message conversation with a sealed title) in a fresh
 * database (embedded PGlite in a temp folder, or PostgreSQL when DATABASE_URL is set: a throwaway
 * database is created on that server), then times through the real route handler with a real session
 * cookie: the sidebar's first page (GET /api/ns/chat_history?limit=50), paging through all N, and
 * opening one chat (GET /api/ns/chat_history/{id}).
 *
 * Run: `npx tsx --conditions=react-server bench/history.bench.ts [N]`
 *      `DATABASE_URL=postgresql://root@127.0.0.1:5432/postgres npx tsx --conditions=react-server bench/history.bench.ts`
 */
import { randomBytes, randomUUID } from "node:crypto";
import { throwawayDatabase } from "./throwaway-db";

const N = Number(process.argv[2] ?? 1000);
const RUNS = 20;

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function main() {
  const database = await throwawayDatabase();

  const { closeDb, getDb } = await import("@/lib/server/db/client");
  const { saveSealedTurn } = await import("@/lib/server/db/queries");
  const { createSession } = await import("@/lib/server/db/sessions");
  const { sessionCookieName } = await import("@/lib/server/auth/cookies");
  const { GET: list } = await import("@/app/api/ns/chat_history/route");
  const { GET: one } = await import("@/app/api/ns/chat_history/[chatId]/route");

  const db = await getDb();
  const user = await db.user.create({ data: { email: "bench@example.com" } });
  const cookie = `${sessionCookieName()}=${(await createSession(user.id)).token}`;
  const t0 = performance.now();
  let lastId = "";
  // The server stores the browser's ciphertext as opaque bytes: random bytes of realistic sizes stand in.
  await db.vault.create({ data: { userId: user.id } });
  const sealed = (bytes: number) => new Uint8Array(randomBytes(bytes));
  for (let i = 0; i < N; i++) {
    lastId = randomUUID();
    await saveSealedTurn({
      userId: user.id,
      chatId: lastId,
      create: true,
      title: sealed(80),
      firstPosition: 0,
      messages: [
        { role: "user", content: sealed(250), attachment: null },
        { role: "assistant", content: sealed(700), attachment: null },
        { role: "user", content: sealed(60), attachment: null },
        { role: "assistant", content: sealed(600), attachment: null },
      ],
    });
  }
  const seedMs = performance.now() - t0;
  const req = (p: string) => new Request(`http://127.0.0.1:3000${p}`, { headers: { cookie } });

  const firstPage: number[] = [];
  const allPages: number[] = [];
  const openOne: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t = performance.now();
    const res = await list(req("/api/ns/chat_history?limit=50"));
    const page = (await res.json()) as { chat_history: unknown[]; next_cursor: string | null };
    firstPage.push(performance.now() - t);
    if (page.chat_history.length !== Math.min(50, N)) throw new Error("unexpected page size");

    t = performance.now();
    let cursor: string | null = null;
    let seen = 0;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const p = (await (await list(req(`/api/ns/chat_history?limit=100${q}`))).json()) as { chat_history: unknown[]; next_cursor: string | null };
      seen += p.chat_history.length;
      cursor = p.next_cursor;
    } while (cursor);
    allPages.push(performance.now() - t);
    if (seen !== N) throw new Error(`paged ${seen} of ${N}`);

    t = performance.now();
    await (await one(req(`/api/ns/chat_history/${lastId}`), { params: Promise.resolve({ chatId: lastId }) })).json();
    openOne.push(performance.now() - t);
  }
  console.log(`database: ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}; ${N} saved chats (seeded in ${(seedMs / 1000).toFixed(1)} s); median of ${RUNS} runs`);
  console.log(`first page (50 chats, titles decrypted):  ${median(firstPage).toFixed(1)} ms`);
  console.log(`all ${N} chats, pages of 100:            ${median(allPages).toFixed(1)} ms`);
  console.log(`open one chat (4 messages decrypted):     ${median(openOne).toFixed(1)} ms`);

  await closeDb();
  await database.drop();
  process.exit(0);
}

void main();
