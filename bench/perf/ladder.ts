/**
 * Where a visitor turn's cost comes from (docs/issues.md #24): a ladder of proxies of the same zero-delay model
 * (bench/perf/fake-llm.mjs), each against the bare proxy (bench/perf/bare-proxy.mjs) in the same run,
 * interleaved, 3 rounds of 20 concurrent for 4 s, as bench/perf/run.ts measures throughput:
 *   translating      raw node:http to the model, its SSE parsed and re-sent as Hush's delta events
 *                    (bench/perf/translating-proxy.mjs): the work any proxy that is not a pipe must do;
 *   translating+SDK  the same through the openai SDK as it comes (its fetch and Stream);
 *   lib/server/llm, create()  Hush's provider layer with the SDK's create() per turn (the app until b8f3652);
 *   lib/server/llm          Hush's provider layer as the app runs it (bench/perf/llm-layer-proxy.ts): the SDK's
 *                    request captured once (lib/server/llm/sdk-request.ts), sent with lib/server/llm/http-fetch.ts, Hush's
 *                    SSE reading, timer and cancellation;
 *   lib/server/llm, no SDK  the same layer with the request written by hand and sent by llmFetch.
 * Hush's own visitor turn on top of lib/server/llm (server.mjs, validation, quota, prompt) is bench/perf/run.ts's row.
 *
 *   npx tsx bench/perf/ladder.ts [--rounds 3] [--seconds 4] [--concurrency 20]
 */
import { median, throughput, type Target } from "./client";
import { sleep, start, stopAll, waitFor } from "./processes";
import { option } from "./options";

const ROUNDS = Number(option("rounds", "3"));
const SECONDS = Number(option("seconds", "4"));
const CONCURRENCY = Number(option("concurrency", "20"));
const BASE = 5960;
const MODEL = `http://127.0.0.1:${BASE}`;
const tsx = (file: string, ...args: string[]) => [process.execPath, ["--conditions=react-server", "--import", "tsx", file, ...args]] as const;

const rungs: { name: string; port: number; cmd: readonly [string, readonly string[]] }[] = [
  { name: "bare proxy (reference)", port: BASE + 1, cmd: [process.execPath, ["bench/perf/bare-proxy.mjs", "--port", `${BASE + 1}`, "--upstream", MODEL]] },
  { name: "translating", port: BASE + 2, cmd: [process.execPath, ["bench/perf/translating-proxy.mjs", "--port", `${BASE + 2}`, "--upstream", MODEL]] },
  { name: "translating + openai SDK", port: BASE + 3, cmd: [process.execPath, ["bench/perf/translating-proxy.mjs", "--port", `${BASE + 3}`, "--upstream", MODEL, "--sdk"]] },
  { name: "Hush's lib/server/llm, the SDK's create() per turn", port: BASE + 6, cmd: tsx("bench/perf/llm-layer-proxy.ts", "--port", `${BASE + 6}`, "--upstream", MODEL, "--sdk-create") },
  { name: "Hush's lib/server/llm (the SDK's request, captured once)", port: BASE + 4, cmd: tsx("bench/perf/llm-layer-proxy.ts", "--port", `${BASE + 4}`, "--upstream", MODEL) },
  { name: "Hush's lib/server/llm, request written by hand", port: BASE + 5, cmd: tsx("bench/perf/llm-layer-proxy.ts", "--port", `${BASE + 5}`, "--upstream", MODEL, "--no-sdk") },
];

async function main() {
  start("fake-llm", process.execPath, ["bench/perf/fake-llm.mjs", "--port", `${BASE}`]);
  const pids = rungs.map((r) => start(r.name, r.cmd[0], [...r.cmd[1]]).pid!);
  for (const r of rungs) await waitFor(`http://127.0.0.1:${r.port}/`);
  const body = JSON.stringify({ model: "bench", messages: [{ role: "user", content: "Hello there" }] });
  const target = (port: number): Target => ({ port, method: "POST", path: "/v1/chat/completions", body, first: "Hello", done: "tok" });
  for (const r of rungs) await throughput(target(r.port), 0, CONCURRENCY, 1); // warm-up
  const rps = rungs.map(() => [] as number[]);
  const cpu = rungs.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, r] of rungs.entries()) {
      const x = await throughput(target(r.port), pids[i]!, CONCURRENCY, SECONDS);
      rps[i]!.push(x.rps);
      cpu[i]!.push(x.cpuPerReq);
    }
    await sleep(200);
  }
  console.log(`\nbench/perf/ladder: ${ROUNDS} rounds, interleaved; ${CONCURRENCY} connections × ${SECONDS} s; the model streams 64 deltas\n`);
  console.log("| Rung | req/s | Ratio to the bare proxy (median; rounds) | CPU per request |");
  console.log("|---|---|---|---|");
  for (const [i, r] of rungs.entries()) {
    const ratios = rps[i]!.map((x, k) => x / rps[0]![k]!);
    console.log(`| ${r.name} | ${median(rps[i]!).toFixed(0)} | ${median(ratios).toFixed(2)}× (${ratios.map((x) => x.toFixed(2)).join(", ")}) | ${median(cpu[i]!).toFixed(2)} ms |`);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
