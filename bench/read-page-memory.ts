/**
 * The server's resident memory under 10 concurrent page reads (docs/issues.md #51 "10 concurrent page reads add
 * ≤ 100 MB RSS"):
 *
 *   npm run bench:read-page-memory           # BENCH_ROUNDS (3) rounds, BENCH_READS (10) reads at once,
 *                                            # BENCH_MODES (cold,warm,fetch)
 *
 * This process serves ten article-like pages of about 1.5 MB each (tests/helpers/article-page.ts, different seeds)
 * on 127.0.0.1:BENCH_PAGES_PORT (3651), and for each measurement starts a fresh child process that reads them all
 * at once through readPage (lib/server/read-page: the guarded fetch, the extraction worker, the quoting), as the
 * read_page tool does, with READ_PAGE_ALLOW_HOSTS naming the pages' host, READ_PAGE_EXTRACT_TIMEOUT_MS 20 s (so that
 * on a loaded machine no read fails its queue wait unmeasured) and the other READ_PAGE_* defaults. The
 * child measures its own resident set: before (its modules loaded, no read yet, so the extraction worker's start
 * counts), then its peak during the reads (VmHWM, reset through /proc/self/clear_refs just before they start), and
 * the parent samples /proc/<child>/status every 10 ms as a cross-check. Interleaved in each round:
 *   cold:  the reads on a fresh child (the worker starts with the first of them);
 *   warm:  the same after one read of another page (the worker started, as on a server that read recently);
 *   fetch: the reference, the same ten fetches through fetchPage only (the bodies held, no extraction).
 * Figures: the peak over the before, MiB, median over rounds; the ten reads' status and wall time.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { articlePage } from "../tests/helpers/article-page";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const READS = Number(process.env.BENCH_READS ?? 10);
const PORT = Number(process.env.BENCH_PAGES_PORT ?? 3651);
const PAGE_BYTES = 1_500_000;
const MiB = 1024 * 1024;
const ROOT = path.resolve(import.meta.dirname, "..");

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Resident set and its peak of a process, MiB, from /proc/<pid>/status. */
function rss(pid: number | "self"): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

type Mode = "cold" | "warm" | "fetch";
interface ChildReport {
  before: number;
  peak: number;
  after: number;
  statuses: string[];
  ms: number;
}

/** The child: read READS pages at once in `mode`, print a ChildReport as JSON. */
async function child(mode: Mode): Promise<void> {
  const { readPage, fetchPage, readPolicy } = await import("../lib/server/read-page");
  const { getConfig } = await import("../lib/server/config");
  const config = getConfig();
  const url = (i: number) => new URL(`http://127.0.0.1:${PORT}/page/${i}`);
  if (mode === "warm") await readPage(url(READS));
  // Settle what start-up left for the collector, then take the before.
  await new Promise((r) => setTimeout(r, 200));
  const before = rss("self").rss;
  writeFileSync("/proc/self/clear_refs", "5");
  const start = performance.now();
  const reads = Array.from({ length: READS }, async (_, i) => {
    if (mode === "fetch") {
      const page = await fetchPage(url(i), { policy: readPolicy(), maxBytes: config.READ_PAGE_MAX_BYTES, timeoutMs: config.READ_PAGE_TIMEOUT_MS });
      return { status: "ok", held: page.bytes };
    }
    return readPage(url(i));
  });
  const results = await Promise.all(reads);
  const ms = performance.now() - start;
  const { rss: after, hwm: peak } = rss("self");
  const report: ChildReport = { before, peak, after, statuses: results.map((r) => r.status), ms };
  process.stdout.write(JSON.stringify(report));
}

/** One measurement in a fresh child: its report and the parent's sampled peak, MiB. */
function measure(mode: Mode): Promise<ChildReport & { sampled: number }> {
  return new Promise((resolve, reject) => {
    // As `npm start` runs the server: MALLOC_ARENA_MAX=2, --max-semi-space-size=4.
    const proc = spawn(process.execPath, [...process.execArgv, "--max-semi-space-size=4", import.meta.filename, "--child", mode], {
      cwd: ROOT,
      // The extraction's time limit raised so that every read is extracted (and measured) on a loaded machine,
      // where ten 1.5 MB pages one after another can pass the default's queue wait.
      env: { ...process.env, READ_PAGE_ALLOW_HOSTS: `127.0.0.1:${PORT}`, READ_PAGE_EXTRACT_TIMEOUT_MS: process.env.READ_PAGE_EXTRACT_TIMEOUT_MS ?? "20000", MALLOC_ARENA_MAX: "2", LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    let sampled = 0;
    const timer = setInterval(() => {
      try {
        sampled = Math.max(sampled, rss(proc.pid!).rss);
      } catch {
        // exited
      }
    }, 10);
    proc.stdout.on("data", (d: Buffer) => (out += d));
    proc.on("error", reject);
    proc.on("exit", (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`child ${mode} exited ${code}: ${out}`));
      resolve({ ...(JSON.parse(out) as ChildReport), sampled });
    });
  });
}

async function main() {
  const pages = Array.from({ length: READS + 1 }, (_, i) => Buffer.from(articlePage(PAGE_BYTES, 1000 + i)));
  const server = http.createServer((req, res) => {
    const i = Number(/^\/page\/(\d+)$/.exec(req.url ?? "")?.[1] ?? -1);
    if (!pages[i]) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": pages[i].length }).end(pages[i]);
  });
  await new Promise<void>((r) => server.listen(PORT, "127.0.0.1", r));
  console.log(`${READS} pages of ${(pages[0]!.length / MiB).toFixed(2)} MiB each at once; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const modes = (process.env.BENCH_MODES ?? "cold,warm,fetch").split(",") as Mode[];
  const rows = Object.fromEntries(modes.map((m) => [m, []])) as unknown as Record<Mode, (ChildReport & { sampled: number })[]>;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of modes.map((_, i) => modes[(i + round) % modes.length]!)) {
        const r = await measure(mode);
        rows[mode].push(r);
        console.log(
          `round ${round + 1} ${mode.padEnd(5)}: before ${r.before.toFixed(0)} MiB, peak ${r.peak.toFixed(0)} MiB (+${(r.peak - r.before).toFixed(0)}; sampled +${(r.sampled - r.before).toFixed(0)}), after ${r.after.toFixed(0)} MiB, ${r.ms.toFixed(0)} ms, ${r.statuses.filter((s) => s === "ok").length}/${READS} ok`,
        );
      }
    }
  } finally {
    server.close();
  }
  console.log("\nmedians over rounds (MiB added over the before):");
  for (const mode of modes) {
    const added = median(rows[mode].map((r) => r.peak - r.before));
    const sampled = median(rows[mode].map((r) => r.sampled - r.before));
    console.log(`  ${mode.padEnd(5)} +${added.toFixed(0)} MiB peak (sampled +${sampled.toFixed(0)}), before ${median(rows[mode].map((r) => r.before)).toFixed(0)} MiB, ${median(rows[mode].map((r) => r.ms)).toFixed(0)} ms for the ${READS}`);
  }
  console.log(`  goal: 10 reads add ≤ 100 MB (${(100e6 / MiB).toFixed(0)} MiB); load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}

const done = process.argv[2] === "--child" ? child(process.argv[3] as Mode) : main();
done.catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
