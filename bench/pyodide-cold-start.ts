/**
 * Python's cold start and a warm run in the browser (docs/issues.md #51 "Pyodide cold start, from the click to the
 * first result with the download from Hush's origin: ≤ 1.3× the package's own loader running the same program in a
 * bare page; warm run of a trivial program: ≤ 2× the bare page's"), in Debian's Chromium (/usr/bin/chromium, or
 * CHROMIUM_PATH) through Playwright:
 *
 *   npm run build && npm run bench:pyodide         # BENCH_ROUNDS (3); ports BENCH_PORT (3650) .. +2
 *
 * Started here: the tests' fake LLM (tests/helpers/fake-llm-server.ts, its scripted run_code rule, 1 ms between
 * streamed pieces) on BENCH_PORT+1, the production build (`server.mjs`, as `npm start` runs it, a throwaway data
 * folder) on BENCH_PORT, and a bare static server on BENCH_PORT+2 serving node_modules/pyodide and a bare page
 * that calls the package's own `loadPyodide` and runs the program typed in its input, printing what it printed.
 * Each run is in a fresh browser context (an empty HTTP cache), interleaved (the order turned each round):
 *   hush cold:  /chat, "Run code" on, "compute 2**100 / 7" typed; from the click on "Send message" (the click
 *               event's timestamp) to the answer showing the program's output (a MutationObserver in the page).
 *               In between: the turn's first request, the model's run_code call, Pyodide fetched from Hush's origin
 *               with integrity into the code worker and started, the program run, the continuation request and
 *               the answer streamed. "device" is the part in the browser: from the first request's response end
 *               to the continuation request's start (Resource Timing);
 *   hush warm:  then in the same page "compute 12345 * 6789", timed the same way;
 *   bare cold:  the bare page, `print(2**100 / 7)`; from the click on its button to the output shown (the same
 *               observer): `loadPyodide` from the bare server, then `runPython`;
 *   bare warm:  then `print(12345 * 6789)` in the same page.
 * Figures: per round hush/bare; the report gives medians over rounds, absolute milliseconds too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { startFakeLlmServer } from "../tests/helpers/fake-llm-server";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3650);
const APP_PORT = PORT;
const LLM_PORT = PORT + 1;
const BARE_PORT = PORT + 2;
const ROOT = path.resolve(import.meta.dirname, "..");

const COLD = { hush: "compute 2**100 / 7", program: "print(2**100 / 7)", output: String(2 ** 100 / 7) };
const WARM = { hush: "compute 12345 * 6789", program: "print(12345 * 6789)", output: String(12345 * 6789) };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

const BARE_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bare Pyodide</title></head><body>
<input id="program" size="60"><button id="run">Run</button><pre id="out"></pre>
<script src="/pyodide/pyodide.js"></script>
<script>
let py;
document.getElementById("run").addEventListener("click", async () => {
  py ??= await loadPyodide({ indexURL: "/pyodide/" });
  let out = "";
  py.setStdout({ batched: (s) => { out += s + "\\n"; } });
  py.runPython(document.getElementById("program").value);
  document.getElementById("out").textContent = out;
});
</script></body></html>`;

const TYPES: Record<string, string> = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".zip": "application/zip" };

/** The bare static server: the page at /, node_modules/pyodide at /pyodide/. */
function startBare(): Promise<http.Server> {
  const dir = path.join(ROOT, "node_modules/pyodide");
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/") return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(BARE_PAGE);
    const file = path.join(dir, path.basename(url.pathname));
    if (!url.pathname.startsWith("/pyodide/") || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(BARE_PORT, "127.0.0.1", () => resolve(server)));
}

function startApp(dataDir: string): ChildProcess {
  return spawn(process.execPath, ["--require", "./deploy/http-timeouts.cjs", "server.mjs", "-p", String(APP_PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_URL: `http://127.0.0.1:${APP_PORT}`,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
      LLM_API_KEY: "bench",
      QUOTA_VISITOR_PER_DAY: "100000",
    },
  });
}

async function waitFor(url: string, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/** Watch `page` for `expected` in `selector`'s text and for clicks on `button`; read with `timing`. */
async function watch(page: Page, selector: string, button: string, expected: string): Promise<void> {
  // A string, not a function: tsx's transform would add helpers the page does not have.
  const args = JSON.stringify({ selector, button, expected });
  await page.evaluate(`(() => {
    const { selector, button, expected } = ${args};
    window.__bench = { click: 0, shown: 0 };
    const onClick = (e) => { if (e.target.closest(button)) window.__bench.click = e.timeStamp; };
    document.addEventListener("click", onClick, true);
    const observer = new MutationObserver(() => {
      if ([...document.querySelectorAll(selector)].some((el) => el.textContent?.includes(expected))) {
        window.__bench.shown = performance.now();
        observer.disconnect();
        document.removeEventListener("click", onClick, true);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

async function timing(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as unknown as { __bench: { shown: number } }).__bench.shown > 0, null, { timeout: 120_000, polling: 250 });
  return page.evaluate(() => {
    const b = (window as unknown as { __bench: { click: number; shown: number } }).__bench;
    return b.shown - b.click;
  });
}

/** The browser's part of the last turn: the first chat response's end to the continuation request's start. */
async function deviceMs(page: Page): Promise<number> {
  return page.evaluate(() => {
    const chats = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/api/ns/chat")) as PerformanceResourceTiming[];
    const [first, second] = chats.slice(-2);
    return second!.startTime - first!.responseEnd;
  });
}

interface Run {
  cold: number;
  warm: number;
  coldDevice?: number;
  warmDevice?: number;
}

async function hush(browser: Browser): Promise<Run> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${APP_PORT}/chat`);
    const toggle = page.getByRole("button", { name: "Run code" });
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('button[aria-pressed="true"]') !== null);
    const input = page.getByPlaceholder(/^Message /);
    const send = page.getByRole("button", { name: "Send message" });
    const turn = async (text: string, expected: string) => {
      await input.fill(text);
      await watch(page, '[data-role="assistant"]', '[aria-label="Send message"]', expected);
      await send.click();
      const ms = await timing(page);
      // The answer done (the composer ready again) before the next turn.
      await page.getByRole("button", { name: "Send message" }).waitFor();
      return { ms, device: await deviceMs(page) };
    };
    const cold = await turn(COLD.hush, COLD.output);
    const warm = await turn(WARM.hush, WARM.output);
    return { cold: cold.ms, coldDevice: cold.device, warm: warm.ms, warmDevice: warm.device };
  } finally {
    await context.close();
  }
}

async function bare(browser: Browser): Promise<Run> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${BARE_PORT}/`);
    const run = async (program: string, expected: string) => {
      await page.fill("#program", program);
      await watch(page, "#out", "#run", expected);
      await page.click("#run");
      return timing(page);
    };
    return { cold: await run(COLD.program, COLD.output), warm: await run(WARM.program, WARM.output) };
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("No production build: run `npm run build` first.");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "hush-bench-pyodide-"));
  const llm = await startFakeLlmServer({ port: LLM_PORT, delayMs: 1 });
  const bareServer = await startBare();
  const app = startApp(dataDir);
  let browser: Browser | undefined;
  try {
    await waitFor(`http://127.0.0.1:${APP_PORT}/`);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    console.log(`Chromium ${browser.version()}; load average ${load()}`);
    const rows: { hush: Run; bare: Run }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const row = {} as { hush: Run; bare: Run };
      for (const target of round % 2 ? (["bare", "hush"] as const) : (["hush", "bare"] as const)) {
        row[target] = target === "hush" ? await hush(browser) : await bare(browser);
      }
      rows.push(row);
      const h = row.hush;
      const b = row.bare;
      console.log(
        `round ${round + 1}: cold hush ${h.cold.toFixed(0)} ms (device ${h.coldDevice!.toFixed(0)}), bare ${b.cold.toFixed(0)} ms, ${(h.cold / b.cold).toFixed(2)}×; ` +
          `warm hush ${h.warm.toFixed(0)} ms (device ${h.warmDevice!.toFixed(0)}), bare ${b.warm.toFixed(1)} ms; load average ${load()}`,
      );
    }
    const m = (f: (r: { hush: Run; bare: Run }) => number) => median(rows.map(f));
    console.log("\nmedians over rounds:");
    console.log(`  cold, click to first result: hush ${m((r) => r.hush.cold).toFixed(0)} ms, bare ${m((r) => r.bare.cold).toFixed(0)} ms, hush/bare ${m((r) => r.hush.cold / r.bare.cold).toFixed(2)}× (goal ≤ 1.3×)`);
    console.log(`    hush's part in the browser (Pyodide fetched, started, run): ${m((r) => r.hush.coldDevice!).toFixed(0)} ms, /bare ${m((r) => r.hush.coldDevice! / r.bare.cold).toFixed(2)}×; the turn around it ${m((r) => r.hush.cold - r.hush.coldDevice!).toFixed(0)} ms`);
    console.log(`  warm, click to result: hush ${m((r) => r.hush.warm).toFixed(0)} ms, bare ${m((r) => r.bare.warm).toFixed(1)} ms, hush/bare ${m((r) => r.hush.warm / r.bare.warm).toFixed(1)}× (goal ≤ 2×)`);
    console.log(`    hush's part in the browser: ${m((r) => r.hush.warmDevice!).toFixed(0)} ms, /bare ${m((r) => r.hush.warmDevice! / r.bare.warm).toFixed(1)}×; the turn around it ${m((r) => r.hush.warm - r.hush.warmDevice!).toFixed(0)} ms`);
    console.log(`load average at the end ${load()}`);
  } finally {
    await browser?.close();
    app.kill();
    bareServer.close();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
