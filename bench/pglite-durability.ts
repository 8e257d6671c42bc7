/**
 * What durable commits cost on the embedded database: `npx tsx bench/pglite-durability.ts`.
 *
 * The app's real save (saveSealedTurn, lib/server/db/sealed-chats.ts: a turn of two sealed messages, 1,024 and
 * 1,536 bytes, appended to a saved chat in one transaction) through the app's PGlite worker, with
 * PGLITE_DURABILITY on (every commit fsynced) and off (PGlite's own -F), INTERLEAVED: 3 rounds, the order
 * alternating, each phase reopening its own folder in a temporary directory on the same disk (TMPDIR). Per phase:
 * the latency of one save (median and p99 of 300 sequential saves after 30 warm-up ones) and saves/s (4 callers,
 * each on its own chat, 400 saves in all). Prints each round and the medians, with the ratio on / off.
 */
import { spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

if (!process.execArgv.includes("--conditions=react-server")) {
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}

const ROUNDS = 3;
const WARMUP = 30;
const SEQUENTIAL = 300;
const CALLERS = 4;
const CONCURRENT = 400;
const MODES = ["on", "off"] as const;
type Mode = (typeof MODES)[number];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? NaN;

async function main() {
  const { resetConfigForTests } = await import("../tests/helpers/process-state");
  const { closeDb, getDb } = await import("@/lib/server/db/client");
  const { saveSealedTurn } = await import("@/lib/server/db/queries");
  delete process.env.DATABASE_URL;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hush-durability-bench-"));
  // Per mode: its folder's user and chats, and each chat's next position.
  const state = new Map<Mode, { userId: string; chats: { id: string; next: number }[] }>();
  const sealed = (bytes: number) => new Uint8Array(randomBytes(bytes));

  const open = async (mode: Mode) => {
    await closeDb();
    Object.assign(process.env, { DATA_DIR: path.join(root, mode), PGLITE_DURABILITY: mode });
    resetConfigForTests();
    const db = await getDb();
    let s = state.get(mode);
    if (!s) {
      const user = await db.user.create({ data: { email: `bench-${mode}@example.com` } });
      await db.vault.create({ data: { userId: user.id } });
      s = { userId: user.id, chats: [] };
      for (let c = 0; c < CALLERS; c++) {
        const id = randomUUID();
        await saveSealedTurn({ userId: user.id, chatId: id, create: true, title: sealed(80), firstPosition: 0, messages: [] });
        s.chats.push({ id, next: 0 });
      }
      state.set(mode, s);
    }
    return s;
  };
  /** One saved turn on chat `c`: the user's message and the answer, sealed sizes of a short exchange. */
  const save = async (userId: string, chat: { id: string; next: number }) => {
    const firstPosition = chat.next;
    chat.next += 2;
    await saveSealedTurn({
      userId,
      chatId: chat.id,
      create: false,
      title: null,
      firstPosition,
      messages: [
        { role: "user", content: sealed(1024), attachment: null },
        { role: "assistant", content: sealed(1536), attachment: null },
      ],
    });
  };

  const rounds: Record<Mode, { latencyMs: number; p99Ms: number; savesPerS: number }[]> = { on: [], off: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const mode of r % 2 === 0 ? MODES : [...MODES].reverse()) {
      const s = await open(mode);
      const chat = s.chats[0]!;
      for (let i = 0; i < WARMUP; i++) await save(s.userId, chat);
      const times: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) {
        const t0 = performance.now();
        await save(s.userId, chat);
        times.push(performance.now() - t0);
      }
      let left = CONCURRENT;
      const t0 = performance.now();
      await Promise.all(s.chats.map(async (c) => { while (left-- > 0) await save(s.userId, c); }));
      const savesPerS = CONCURRENT / ((performance.now() - t0) / 1000);
      const row = { latencyMs: median(times), p99Ms: p99(times), savesPerS };
      rounds[mode].push(row);
      console.log(`round ${r + 1} ${mode.padEnd(3)}: save ${row.latencyMs.toFixed(2)} ms (p99 ${row.p99Ms.toFixed(2)}), ${row.savesPerS.toFixed(0)} saves/s`);
    }
  }
  await closeDb();
  fs.rmSync(root, { recursive: true, force: true });

  const pick = (mode: Mode, k: "latencyMs" | "p99Ms" | "savesPerS") => rounds[mode].map((x) => x[k]);
  const ratios = (k: "latencyMs" | "p99Ms" | "savesPerS") => rounds.on.map((x, i) => x[k] / rounds.off[i]![k]);
  console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; medians of ${ROUNDS} rounds, ratio on / off (per round)`);
  for (const [label, k, unit] of [
    ["one saved turn, median", "latencyMs", "ms"],
    ["one saved turn, p99", "p99Ms", "ms"],
    ["saves/s (4 callers)", "savesPerS", "/s"],
  ] as const) {
    const on = median(pick("on", k));
    const off = median(pick("off", k));
    console.log(
      `${label.padEnd(24)} on ${on.toFixed(2)} ${unit}  off ${off.toFixed(2)} ${unit}  on/off ${median(ratios(k)).toFixed(2)}× (${ratios(k).map((x) => x.toFixed(2)).join(", ")})`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
