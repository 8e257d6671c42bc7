/**
 * Memory of an app instance under a mixed workload (docs/issues.md #11): each production instance's memory after a
 * warm-up of 2,000 requests and again after 10,000 more mixed requests through nginx, each read once
 * settled. The issue's bar: growth within 10%.
 *
 *   npx tsx bench/memory.ts        (MEMORY_REQUESTS=10000 MEMORY_CONCURRENCY=20 MEMORY_ROUNDS=1)
 *
 * Two readings per instance, both after 10 s idle:
 * - raw RSS from /proc: what `top` shows. V8 collects lazily, so this includes garbage of the last
 *   requests and swings by ±25% from one reading to the next on an idle server;
 * - "settled" RSS: after a full garbage collection forced through the inspector (each instance runs with
 *   --inspect on a loopback port), plus the V8 heap in use. A leak shows here; the bar applies here.
 * MEMORY_ROUNDS > 1 repeats the measured run and prints each round, to tell a leak (grows every round)
 * from a heap settling at its working size.
 *
 * The mix: liveness 30%, landing page 20%, /api/me signed in 20%, readiness 10%, a visitor chat 10%,
 * a signed-in chat saved to history 10% (the answer from /api/ns/chat_user, then the turn sealed under
 * the user's vault key and stored with /api/ns/chat_save, as the browser does: docs/issues.md #8). Same stack as bench/load.ts (scripts/deploy/stack.ts).
 */
import fs from "node:fs";
import WebSocket from "ws";
import { HttpsClient } from "../scripts/deploy/https-client";
import { signIn } from "../scripts/deploy/sign-in";
import { startStack, type Stack } from "../scripts/deploy/stack";
import { saveTurn, setUpVault, type Vault } from "../scripts/deploy/vault";

const REQUESTS = Number(process.env.MEMORY_REQUESTS ?? 10_000);
const WARMUP = Number(process.env.MEMORY_WARMUP ?? 2_000);
const CONCURRENCY = Number(process.env.MEMORY_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.MEMORY_ROUNDS ?? 1);
const SETTLE_MS = 10_000;
const INSPECT_PORTS: [number, number] = [Number(process.env.MEMORY_INSPECT_PORT ?? 9339), Number(process.env.MEMORY_INSPECT_PORT ?? 9339) + 1];

interface Settled {
  /** MB, after a full GC. */
  rss: number;
  heapUsed: number;
  external: number;
}

/** An instance's memory after a forced full GC, through its inspector (Chrome DevTools Protocol), in MB. */
async function settled(port: number): Promise<Settled> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((r, j) => ws.once("open", r).once("error", j));
  let id = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { result?: { value?: string } } }>((resolve) => {
      const mine = ++id;
      const onMessage = (data: WebSocket.RawData) => {
        const msg = JSON.parse(String(data)) as { id?: number };
        if (msg.id === mine) {
          ws.off("message", onMessage);
          resolve(msg as never);
        }
      };
      ws.on("message", onMessage);
      ws.send(JSON.stringify({ id: mine, method, params }));
    });
  await call("HeapProfiler.collectGarbage");
  const res = await call("Runtime.evaluate", { expression: "JSON.stringify(process.memoryUsage())", returnByValue: true });
  ws.close();
  const m = JSON.parse(res.result!.result!.value!) as Record<string, number>;
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  return { rss: mb(m.rss!), heapUsed: mb(m.heapUsed!), external: mb(m.external!) };
}

const pct = (from: number, to: number) => Math.round(((to - from) / from) * 1000) / 10;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** One saved turn: the streamed answer, then the sealed turn to chat_save. @returns whether both succeeded */
async function savedChat(user: HttpsClient, vault: Vault, content: string, body: unknown): Promise<boolean> {
  const res = await user.chat("/api/ns/chat_user", body);
  const last = res.events.at(-1);
  if (last?.event !== "done") return false;
  const answer = (last.data as { messages: { role: string; content: string }[] }).messages.at(-1)!.content;
  const saved = await saveTurn(user, vault, null, 0, [{ role: "user", content }, { role: "assistant", content: answer }]);
  return saved.status === 200;
}

async function drive(stack: Stack, user: HttpsClient, vault: Vault, visitors: HttpsClient[], total: number): Promise<number> {
  let next = 0;
  let failures = 0;
  const failedKinds: Record<string, number> = {};
  const ask = (content: string, save: boolean) => ({ messages: [{ role: "user", content }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: save });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      const visitor = visitors[w]!;
      while (next < total) {
        const i = next++;
        const slot = i % 10;
        let ok: boolean;
        if (slot < 3) ok = (await visitor.request("GET", "/api/health")).status === 200;
        else if (slot < 5) ok = (await visitor.request("GET", "/")).status === 200;
        else if (slot < 7) ok = (await user.request("GET", "/api/me")).status === 200;
        else if (slot < 8) ok = (await visitor.request("GET", "/api/ready")).status === 200;
        else if (slot < 9) ok = (await visitor.chat("/api/ns/chat", ask(`memory ${i}`, false))).events.at(-1)?.event === "done";
        else ok = await savedChat(user, vault, `memory ${i}`, ask(`memory ${i}`, true));
        if (!ok) {
          failures++;
          failedKinds[slot] = (failedKinds[slot] ?? 0) + 1;
        }
      }
    }),
  );
  void stack;
  if (failures) console.error("failures by slot (0-2 health, 3-4 landing, 5-6 me, 7 ready, 8 visitor chat, 9 saved chat):", failedKinds);
  return failures;
}

async function main(): Promise<void> {
  const stack = await startStack({
    directDatabase: true,
    appEnv: { QUOTA_VISITOR_PER_DAY: "10000000", QUOTA_FREE_PER_DAY: "10000000" },
    inspectPorts: INSPECT_PORTS,
  });
  try {
    const user = new HttpsClient(stack.origin, { ca: stack.ca, maxSockets: CONCURRENCY });
    await signIn(stack, user, "memory@example.test");
    const vault = await setUpVault(user, null);
    const visitors = Array.from({ length: CONCURRENCY }, (_, i) => new HttpsClient(stack.origin, { ca: stack.ca, maxSockets: 1, localAddress: `127.0.3.${i + 1}` }));
    const warmFailures = await drive(stack, user, vault, visitors, WARMUP);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const before = stack.apps.map((a) => rssMb(a.proc.pid!));
    const settledBefore = await Promise.all(stack.apps.map((a) => settled(a.inspectPort!)));
    const started = Date.now();
    let failures = 0;
    let after = before;
    let settledAfter = settledBefore;
    // MEMORY_ROUNDS > 1 repeats the measured run, to tell a leak (grows every round) from the heap
    // settling at its working size (grows once, then flat).
    for (let round = 1; round <= ROUNDS; round++) {
      failures += await drive(stack, user, vault, visitors, REQUESTS);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      after = stack.apps.map((a) => rssMb(a.proc.pid!));
      settledAfter = await Promise.all(stack.apps.map((a) => settled(a.inspectPort!)));
      if (ROUNDS > 1) {
        console.log(`round ${round}: raw RSS ${after.map((mb) => Math.round(mb)).join(" / ")} MB; settled ${settledAfter.map((m) => `${m.rss} MB (heap ${m.heapUsed})`).join(" / ")}`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    const report = {
      requests: REQUESTS * ROUNDS,
      concurrency: CONCURRENCY,
      seconds: Math.round(seconds),
      failures: warmFailures + failures,
      instances: stack.apps.map((a, i) => ({
        instance: a.name,
        rawRssBeforeMb: Math.round(before[i]!),
        rawRssAfterMb: Math.round(after[i]!),
        rawGrowthPercent: pct(before[i]!, after[i]!),
        settledBefore: settledBefore[i]!,
        settledAfter: settledAfter[i]!,
        growthPercent: pct(settledBefore[i]!.rss, settledAfter[i]!.rss),
        heapGrowthPercent: pct(settledBefore[i]!.heapUsed, settledAfter[i]!.heapUsed),
      })),
    };
    console.log(JSON.stringify(report, null, 2));
    user.close();
    for (const v of visitors) v.close();
    const worst = Math.max(...report.instances.map((i) => i.growthPercent));
    if (report.failures || worst > 10) {
      console.error(`memory bench: ${report.failures} failures, worst settled RSS growth ${worst}% (bar: 10%)`);
      process.exitCode = 1;
    }
  } finally {
    await stack.close();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error("memory bench FAILED:", error);
    process.exit(1);
  },
);
