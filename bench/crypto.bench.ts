/**
 * Encryption core throughput: `npx tsx bench/crypto.bench.ts`.
 *
 * Field encryption and decryption (XChaCha20-Poly1305-IETF with associated data, lib/crypto.ts) for
 * 1 KB and 1 MB messages, the cost of a data-key wrap and unwrap (once per request in lib/db), and a
 * whole 100-message chat read (one unwrap plus 100 decryptions of 1 KB). Each row runs for about
 * one second after a warm-up; figures are medians of 5 rounds.
 */
import { spawnSync } from "node:child_process";
import os from "node:os";

// lib/crypto.ts imports "server-only", an empty module only under the react-server condition
// (which Next.js sets): re-run this file with it when started plainly.
if (!process.execArgv.includes("--conditions=react-server")) {
  const run = spawnSync(process.execPath, [...process.execArgv, "--conditions=react-server", ...process.argv.slice(1)], {
    stdio: "inherit",
  });
  process.exit(run.status ?? 1);
}

const ROUNDS = 5;
const ROUND_MS = 200;

/** Median time per call in microseconds. */
function measure(fn: () => void): number {
  for (let i = 0; i < 20; i++) fn();
  const perRound: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0;
    do {
      fn();
      calls++;
      elapsed = Number(process.hrtime.bigint() - start) / 1e3;
    } while (elapsed < ROUND_MS * 1e3);
    perRound.push(elapsed / calls);
  }
  return perRound.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

async function main(): Promise<void> {
  const readyStart = performance.now();
  const c = await import("@/lib/crypto");
  await c.initCrypto();
  const readyMs = performance.now() - readyStart;

  const dataKey = c.generateDataKey();
  const master = { id: "", key: c.generateDataKey() };
  master.id = c.masterKeyId(master.key);
  const keys = { current: master, previous: null };
  const ctx = { field: "content" as const, userId: "cl9x2user000000000000000", chatId: crypto.randomUUID(), position: 12, role: "assistant" };

  const rows: Record<string, string>[] = [];
  const row = (what: string, bytes: number, us: number) =>
    rows.push({
      operation: what,
      "µs/op": us < 10 ? us.toFixed(2) : us.toFixed(0),
      "ops/s": Math.round(1e6 / us).toLocaleString("en"),
      "MB/s": bytes ? ((bytes / us) * 1e6 / 1e6).toFixed(0) : "",
    });

  for (const [label, size] of [["1 KB", 1024], ["1 MB", 1024 * 1024]] as const) {
    const text = "a".repeat(size);
    const sealed = c.encryptField(dataKey, ctx, text);
    row(`encrypt ${label} (text)`, size, measure(() => c.encryptField(dataKey, ctx, text)));
    row(`decrypt ${label} (to text)`, size, measure(() => c.decryptFieldText(dataKey, ctx, sealed)));
  }

  const wrapped = c.wrapDataKey(dataKey, ctx.userId, master);
  const stored = { userId: ctx.userId, masterKeyId: master.id };
  row("wrap data key", 0, measure(() => c.wrapDataKey(dataKey, ctx.userId, master)));
  row("unwrap data key", 0, measure(() => c.unwrapDataKey(wrapped, stored, keys)));

  const chat = Array.from({ length: 100 }, (_, position) => {
    const mctx = { ...ctx, position, role: position % 2 ? "assistant" : "user" };
    return { mctx, sealed: c.encryptField(dataKey, mctx, "b".repeat(1024)) };
  });
  row(
    "read 100×1 KB chat (unwrap + 100 decrypts)",
    100 * 1024,
    measure(() => {
      const key = c.unwrapDataKey(wrapped, stored, keys);
      for (const m of chat) c.decryptFieldText(key, m.mctx, m.sealed);
    }),
  );

  const sodium = (await import("libsodium-wrappers")).default;
  await sodium.ready;
  console.log(`libsodium ${sodium.SODIUM_VERSION_STRING}, Node ${process.version}; ` +
    `module load + sodium.ready ${readyMs.toFixed(0)} ms; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  console.table(rows);
}

void main();
