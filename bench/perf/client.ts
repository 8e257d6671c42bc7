/**
 * The load generator of bench/perf/run.ts (docs/issues.md #12, #24): one keep-alive node:http client for
 * every target, Hush's and the references', so the client's own cost weighs on both sides alike.
 * Throughput: `concurrency` loops for `seconds`; TTFT: sequential requests, time to the first token.
 */
import http from "node:http";
import { commCpuMs, cpuSince, machineBusyMs, sleep, treeCpuMs } from "./processes";

export const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Target {
  port: number;
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Text whose arrival marks the first token. */
  first?: string;
  /** Text the complete answer must contain. */
  done?: string;
}

export interface Outcome {
  ok: boolean;
  /** Milliseconds from the request's start to its first token (NaN when none came). */
  firstMs: number;
  totalMs: number;
}

/** Send one request and read its answer to the end. Never rejects: a failure is `ok: false`. */
export function send(t: Target): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers: Record<string, string> = { ...t.headers };
    if (t.body !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(t.body));
    }
    const req = http.request({ host: "127.0.0.1", port: t.port, method: t.method, path: t.path, headers, agent }, (res) => {
      let seen = "";
      let firstMs = NaN;
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        if (t.first || t.done) seen += d;
        if (Number.isNaN(firstMs) && (!t.first || seen.includes(t.first))) firstMs = performance.now() - t0;
      });
      res.on("end", () =>
        resolve({ ok: res.statusCode === 200 && (!t.done || seen.includes(t.done)), firstMs, totalMs: performance.now() - t0 }),
      );
      res.on("error", () => resolve({ ok: false, firstMs, totalMs: performance.now() - t0 }));
    });
    req.on("error", () => resolve({ ok: false, firstMs: NaN, totalMs: performance.now() - t0 }));
    req.end(t.body);
  });
}

/** One measured unit of work: a request, or a sequence of requests (a signed-in turn: chat, then save). */
export type Job = Target | { name: string; port: number; run: () => Promise<Outcome> };
export const runJob = (j: Job) => ("run" in j ? j.run() : send(j));
export const jobName = (j: Job) => ("run" in j ? `:${j.port} ${j.name}` : `:${j.port}${j.path}`);

/**
 * Requests per second with `concurrency` loops for `seconds`, and CPU ms per request (per unit of work) of
 * `pid`'s process tree; also, per request, the whole machine's busy CPU (`machinePerReq`), this load
 * client's own (`clientPerReq`) and PostgreSQL's, server and backends (`postgresPerReq`): where a unit's
 * CPU goes when the client, the model, the database and the server share the machine's cores.
 */
export async function throughput(t: Job, pid: number, concurrency: number, seconds: number) {
  const end = performance.now() + seconds * 1000;
  let ok = 0;
  let failed = 0;
  const machine0 = machineBusyMs();
  const client0 = process.cpuUsage();
  const postgres0 = commCpuMs("postgres");
  const cpu0 = treeCpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await runJob(t);
        if (r.ok) ok++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = treeCpuMs(pid) - cpu0;
  const postgres = cpuSince(postgres0, commCpuMs("postgres"));
  const client = process.cpuUsage(client0);
  const machine = machineBusyMs() - machine0;
  if (failed) console.error(`  ! ${failed} failed requests to ${jobName(t)}`);
  const n = Math.max(1, ok + failed);
  return {
    rps: ok / elapsed,
    cpuPerReq: cpu / n,
    machinePerReq: machine / n,
    clientPerReq: (client.user + client.system) / 1000 / n,
    postgresPerReq: postgres / n,
  };
}

/** Median time to the first token of `n` sequential requests (ms). @throws when one fails */
export async function ttft(t: Job, n: number) {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await runJob(t);
    if (!r.ok) throw new Error(`TTFT request to ${jobName(t)} failed`);
    xs.push(r.firstMs);
  }
  return median(xs);
}

/** p50 and p95 latency (ms) of `probe`, sent one at a time, while `load` runs at `concurrency` for `seconds`. */
export async function latencyUnderLoad(probe: Target, load: Job, concurrency: number, seconds: number) {
  const end = performance.now() + seconds * 1000;
  const lat: number[] = [];
  const loops = Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) await runJob(load);
  });
  await sleep(300);
  while (performance.now() < end - 200) {
    lat.push((await send(probe)).totalMs);
    await sleep(5);
  }
  await Promise.all(loops);
  return { p50: quantile(lat, 0.5), p95: quantile(lat, 0.95) };
}

export function quantile(xs: number[], q: number) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}
export const median = (xs: number[]) => quantile(xs, 0.5);
