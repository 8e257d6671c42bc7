/**
 * Load through the production layout (scripts/deploy/stack.ts: nginx + TLS, two instances, PostgreSQL,
 * Redis): N concurrent streaming chats for D seconds, half visitors, half signed-in users saving history,
 * the fake LLM at a provider's pace. Asserts 0 errors and 0 lost or duplicated saved messages (counted
 * per chat in PostgreSQL afterwards); reports time to first token (p50/p99) and turns per second.
 *
 *   npm run test:load                             # the full run, 200 concurrent for 60 s (after `npm run build`)
 *   LOAD_SECONDS=15 npx tsx bench/load.ts         # the run npm test makes (scripts/test.sh)
 *
 * Needs a production build (`npx next build`), nginx, redis-server, openssl, curl and PostgreSQL
 * (TEST_POSTGRES_URL, default postgresql://root@127.0.0.1:5432/postgres). Users sign in by the real
 * e-mail-link flow and set up their vault (docs/issues.md #8) before the clock starts; each saved turn is then
 * POST /api/ns/chat_user (streamed) followed by the sealed turn to POST /api/ns/chat_save, as the browser does.
 */
import assert from "node:assert/strict";
import { HttpsClient } from "../scripts/deploy/https-client";
import { signIn } from "../scripts/deploy/sign-in";
import { startStack, type Stack } from "../scripts/deploy/stack";
import { saveTurn, setUpVault, type Vault } from "../scripts/deploy/vault";
import type { PlainMessage } from "../lib/browser/vault/seal";

const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
/** Fake provider pace: first token after 150 ms, then a 3-word piece every 40 ms (about 75 words/s). */
const FIRST_TOKEN_MS = Number(process.env.LOAD_FIRST_TOKEN_MS ?? 150);
const PIECE_MS = Number(process.env.LOAD_PIECE_MS ?? 40);
/** A signed-in user starts a new chat after this many turns (keeps requests a realistic size). */
const TURNS_PER_CHAT = 5;
const PROMPT = "Please explain in a few sentences how a lighthouse keeper kept the lamp burning through a long winter night";

interface Stats {
  turns: number;
  visitorTurns: number;
  savedTurns: number;
  errors: string[];
  ttft: number[];
  /** chat id -> turns the client saw saved in it. */
  savedPerChat: Map<string, number>;
}

/**
 * One saved turn as the browser does it (docs/issues.md #8): stream the answer from /api/ns/chat_user (which
 * stores nothing), then seal the new user message and answer under the vault key and POST them to
 * /api/ns/chat_save (a new chat's id is made here). Both requests are inside the clock.
 * @returns the chat id the turn was saved in (unchanged when the turn failed).
 */
async function chatAndSave(client: HttpsClient, vault: Vault, chatId: string | null, history: PlainMessage[], stats: Stats): Promise<string | null> {
  const res = await client.chat("/api/ns/chat_user", {
    messages: history.map(({ role, content }) => ({ role, content })),
    model: "llama3-8b-8192",
    file: null,
    chat_id: chatId,
    save_chat: true,
  });
  const last = res.events.at(-1);
  if (res.status !== 200 || last?.event !== "done") {
    stats.errors.push(`user: ${res.status} ${res.body.slice(-200)}`);
    history.pop();
    return chatId;
  }
  if (res.ttftMs !== null) stats.ttft.push(res.ttftMs);
  history.push({ role: "assistant", content: (last.data as { messages: { role: string; content: string }[] }).messages.at(-1)!.content });
  const from = history.length - 2;
  const saved = await saveTurn(client, vault, chatId, from, history);
  if (saved.status !== 200) {
    stats.errors.push(`chat_save: ${saved.status} ${saved.body.slice(-200)}`);
    history.length = from;
    return chatId;
  }
  stats.savedPerChat.set(saved.chatId, (stats.savedPerChat.get(saved.chatId) ?? 0) + 1);
  stats.savedTurns++;
  return saved.chatId;
}

async function userWorker(client: HttpsClient, vault: Vault, until: number, stats: Stats): Promise<void> {
  while (Date.now() < until) {
    let chatId: string | null = null;
    const history: PlainMessage[] = [];
    for (let i = 0; i < TURNS_PER_CHAT && Date.now() < until; i++) {
      history.push({ role: "user", content: `${PROMPT} (${i})` });
      try {
        chatId = await chatAndSave(client, vault, chatId, history, stats);
      } catch (error) {
        stats.errors.push(`user: ${(error as Error).message}`);
      }
      stats.turns++;
    }
  }
}

async function visitorWorker(client: HttpsClient, until: number, stats: Stats): Promise<void> {
  while (Date.now() < until) {
    try {
      const res = await client.chat("/api/ns/chat", {
        messages: [{ role: "user", content: PROMPT }],
        model: "llama3-8b-8192",
        file: null,
        chat_id: null,
        save_chat: false,
      });
      if (res.status !== 200 || res.events.at(-1)?.event !== "done") stats.errors.push(`visitor: ${res.status} ${res.body.slice(-200)}`);
      else if (res.ttftMs !== null) stats.ttft.push(res.ttftMs);
    } catch (error) {
      stats.errors.push(`visitor: ${(error as Error).message}`);
    }
    stats.turns++;
    stats.visitorTurns++;
  }
}

/** Rows inserted, updated and deleted so far, per table of the test database. */
async function tableWrites(stack: Stack): Promise<Map<string, { ins: number; upd: number; del: number }>> {
  const rows = await stack.sql<{ relname: string; ins: number; upd: number; del: number }>(
    `SELECT relname, n_tup_ins::int AS ins, n_tup_upd::int AS upd, n_tup_del::int AS del FROM pg_stat_user_tables`,
  );
  return new Map(rows.map((r) => [r.relname, r]));
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Run the load against a started stack; returns the report (throws on errors or a count mismatch). */
export async function runLoad(stack: Stack, concurrency = CONCURRENCY, seconds = SECONDS) {
  const users = Math.floor(concurrency / 2);
  const visitors = concurrency - users;
  const userClients: HttpsClient[] = [];
  const vaults: Vault[] = [];
  // Sign the users in (e-mail link through nginx) and set up each one's vault (POST /api/vault, a
  // recovery-code method: Argon2id for a passphrase would only slow the setup), ten at a time, before
  // the clock starts.
  for (let i = 0; i < users; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, users - i) }, async (_, j) => {
        const c = new HttpsClient(stack.origin, { ca: stack.ca, maxSockets: 1 });
        await signIn(stack, c, `load-${i + j}@example.test`);
        vaults[i + j] = await setUpVault(c, null);
        userClients[i + j] = c;
      }),
    );
  }
  // Visitors come from their own addresses (127.0.1.x), as separate people would.
  const visitorClients = Array.from({ length: visitors }, (_, i) => new HttpsClient(stack.origin, { ca: stack.ca, maxSockets: 1, localAddress: `127.0.1.${(i % 250) + 1}` }));
  const before = (await stack.sql<{ n: number }>(`SELECT count(*)::int AS n FROM messages`))[0]!.n;
  const writesBefore = await tableWrites(stack);

  const stats: Stats = { turns: 0, visitorTurns: 0, savedTurns: 0, errors: [], ttft: [], savedPerChat: new Map() };
  const started = Date.now();
  const until = started + seconds * 1000;
  await Promise.all([...userClients.map((c, i) => userWorker(c, vaults[i]!, until, stats)), ...visitorClients.map((c) => visitorWorker(c, until, stats))]);
  const elapsed = (Date.now() - started) / 1000;
  for (const c of [...userClients, ...visitorClients]) c.close();

  // Count what PostgreSQL holds: every saved turn is exactly 2 rows (the user's message and the answer).
  const rows = await stack.sql<{ chat_id: string; n: number }>(`SELECT chat_id::text, count(*)::int AS n FROM messages GROUP BY chat_id`);
  const inDb = new Map(rows.map((r) => [r.chat_id, r.n]));
  const total = rows.reduce((s, r) => s + r.n, 0) - before;
  let lost = 0;
  let duplicated = 0;
  for (const [chatId, turns] of stats.savedPerChat) {
    const n = inDb.get(chatId) ?? 0;
    if (n < 2 * turns) lost += 2 * turns - n;
    if (n > 2 * turns) duplicated += n - 2 * turns;
  }
  // PostgreSQL's statistics reach pg_stat_user_tables within about a second of each commit.
  await new Promise((r) => setTimeout(r, 2_000));
  const writesAfter = await tableWrites(stack);
  const writesPerSavedTurn: Record<string, string> = {};
  for (const [table, after] of writesAfter) {
    const b = writesBefore.get(table) ?? { ins: 0, upd: 0, del: 0 };
    const d = { ins: after.ins - b.ins, upd: after.upd - b.upd, del: after.del - b.del };
    if (d.ins + d.upd + d.del === 0) continue;
    const per = (n: number) => (stats.savedTurns ? (n / stats.savedTurns).toFixed(2) : "-");
    writesPerSavedTurn[table] = `insert ${per(d.ins)}, update ${per(d.upd)}, delete ${per(d.del)}`;
  }
  const sorted = [...stats.ttft].sort((a, b) => a - b);
  const report = {
    concurrency,
    seconds,
    turns: stats.turns,
    turnsPerSecond: Math.round((stats.turns / elapsed) * 10) / 10,
    visitorTurns: stats.visitorTurns,
    savedTurns: stats.savedTurns,
    savedMessagesExpected: 2 * stats.savedTurns,
    savedMessagesInDb: total,
    lost,
    duplicated,
    errors: stats.errors.length,
    ttftMs: { p50: Math.round(percentile(sorted, 50)), p99: Math.round(percentile(sorted, 99)), max: Math.round(sorted.at(-1) ?? NaN) },
    llm: { firstTokenMs: FIRST_TOKEN_MS, pieceMs: PIECE_MS },
    /** Row writes in PostgreSQL during the run divided by the saved turns (visitors write nothing there). */
    writesPerSavedTurn,
  };
  console.log(JSON.stringify(report, null, 2));
  if (stats.errors.length) console.error("first errors:", stats.errors.slice(0, 5));
  assert.equal(stats.errors.length, 0, "no errors");
  assert.equal(lost, 0, "no saved message lost");
  assert.equal(duplicated, 0, "no saved message duplicated");
  assert.equal(total, 2 * stats.savedTurns, "rows in PostgreSQL = 2 per saved turn");
  return report;
}

async function main(): Promise<void> {
  const stack = await startStack({
    llmDelayMs: PIECE_MS,
    llmFirstTokenMs: FIRST_TOKEN_MS,
    directDatabase: true,
    // All the users sign in from 127.0.0.1: lift the per-client sign-in e-mail limit (20 an hour) too.
    appEnv: {
      QUOTA_VISITOR_PER_DAY: "10000000",
      QUOTA_FREE_PER_DAY: "10000000",
      EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR: "1000000",
      LLM_TIMEOUT_MS: "30000",
    },
  });
  try {
    await runLoad(stack);
  } catch (error) {
    // What the instances said about it (never message text: the app does not log any).
    for (const app of stack.apps) {
      const lines = app.output.join("").split("\n").filter((l) => /error|fail|timed out/i.test(l));
      console.error(`instance ${app.name}: ${lines.length} error lines; first:\n  ${[...new Set(lines)].slice(0, 8).join("\n  ")}`);
    }
    throw error;
  } finally {
    await stack.close();
  }
}

if (process.argv[1]?.endsWith("load.ts")) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error("load test FAILED:", error);
      process.exit(1);
    },
  );
}
