#!/usr/bin/env node
/**
 * The chat page while a long answer streams into a long chat (issue 12 "Chat page", issue 9 "Long chats
 * stay fast"), in Chromium, against production builds:
 *   open:   time from clicking a saved 1,000-message chat in the sidebar to its last message on screen;
 *           main-thread long tasks (> 50 ms, PerformanceObserver "longtask") while it opens;
 *   stream: a 4,000-token Markdown answer (paragraphs, lists, code) streams in while a key is typed into
 *           the input every 120 ms; keydown-to-paint per key (keydown's timestamp to the first task after
 *           the next animation frame) and long tasks during the stream.
 *
 * How the chat gets there: a small Node proxy in front of each app serves the signed-in parts the page
 * asks for (GET /api/me, /api/check_account_status, /api/check_stripe_status, /api/ns/chat_history and
 * /api/ns/chat_history/bench-chat with 1,000 messages) and POST /api/ns/chat_user as the app's own SSE
 * stream (`delta` events, then `done`), 4 tokens every 20 ms; everything else (pages, scripts, CSS,
 * fonts) goes to the real app. So the page runs its real code paths with no test hook in the app, and
 * the same flow works on any revision, e.g. main as the reference.
 *
 *   npm run build   # in this tree, and in the reference tree (e.g. a worktree of main)
 *   node bench/chat-page.mjs --ref-dir /work/wt/chat-ui-base [--dir .] [--rounds 3] [--port 5650]
 *
 * Targets are measured interleaved (ref, this, ref, this, ...); the report gives medians over rounds and
 * this/reference ratios. Goals (issue 12): no task over 50 ms while streaming, keydown-to-paint p95
 * <= 50 ms, last messages shown < 300 ms after opening.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const ROUNDS = Number(args.rounds ?? 3);
const BASE_PORT = Number(args.port ?? 5650);
const MESSAGES = Number(args.messages ?? 1000);
const ANSWER_TOKENS = Number(args.tokens ?? 4000);
const TOKENS_PER_DELTA = 4;
const DELTA_MS = 20;
const KEY_EVERY_MS = 120;
const targets = [
  ...(args["ref-dir"] ? [{ name: "reference", dir: path.resolve(args["ref-dir"]) }] : []),
  { name: "this", dir: path.resolve(args.dir ?? ".") },
];

// ---------- content ----------
const LOREM = "private encrypted chat answers stay on this page while the model streams its words into the list".split(" ");
const words = (n, seed) => Array.from({ length: n }, (_, i) => LOREM[(i * 7 + seed) % LOREM.length]).join(" ");

function assistantText(i) {
  const parts = [`Answer ${i}: ${words(40, i)}.`, `- ${words(8, i + 1)}\n- ${words(8, i + 2)}\n- ${words(8, i + 3)}`];
  if (i % 5 === 0) parts.push("```js\n" + `const n${i} = ${i};\nconsole.log(n${i} * 2);\n` + "```");
  parts.push(`${words(30, i + 4)}.`);
  return parts.join("\n\n");
}

const chat = Array.from({ length: MESSAGES }, (_, i) =>
  i % 2 === 0 ? { role: "user", content: `Question ${i}: ${words(20, i)}?` } : { role: "assistant", content: assistantText(i) },
);
chat[chat.length - 1] = { role: "assistant", content: `${assistantText(MESSAGES)}\n\nZZLASTMESSAGEZZ` };

function answerTokens() {
  const tokens = [];
  for (let block = 0; tokens.length < ANSWER_TOKENS; block++) {
    const text =
      block % 4 === 3
        ? "```python\n" + `def f${block}(x):\n    return x * ${block}\n` + "```\n\n"
        : block % 4 === 1
          ? `1. ${words(10, block)}\n2. ${words(10, block + 1)}\n3. ${words(10, block + 2)}\n\n`
          : `${words(60, block)}.\n\n`;
    tokens.push(...(text.match(/\S+\s*/g) ?? []));
  }
  return tokens.slice(0, ANSWER_TOKENS);
}
const TOKENS = answerTokens();

// ---------- proxy in front of each app ----------
function startProxy(port, appPort) {
  const json = (res, body) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/api/me") return json(res, { user: { email: "bench@hush.test" } });
    if (url.pathname === "/api/check_account_status") return json(res, { account_deleted: false });
    if (url.pathname === "/api/check_stripe_status") return json(res, { plan: "Free", status: "none" });
    if (url.pathname === "/api/ns/chat_history")
      return json(res, { chat_history: [{ chat_id: "bench-chat", display_name: "Bench chat", last_updated: new Date().toISOString() }], next_cursor: null });
    if (url.pathname === "/api/ns/chat_history/bench-chat") return json(res, { chat_id: "bench-chat", messages: chat });
    if (url.pathname === "/api/ns/chat_user" && req.method === "POST") {
      const body = [];
      req.on("data", (c) => body.push(c));
      req.on("end", async () => {
        const sent = JSON.parse(Buffer.concat(body).toString()).messages;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        let closed = false;
        res.on("close", () => (closed = true));
        for (let i = 0; i < TOKENS.length && !closed; i += TOKENS_PER_DELTA) {
          await new Promise((r) => setTimeout(r, DELTA_MS));
          res.write(`event: delta\ndata: ${JSON.stringify({ text: TOKENS.slice(i, i + TOKENS_PER_DELTA).join("") })}\n\n`);
        }
        const done = { messages: [...sent, { role: "assistant", content: TOKENS.join("") }], chat_id: "bench-chat", attachment: null };
        res.end(`event: done\ndata: ${JSON.stringify(done)}\n\n`);
      });
      return;
    }
    const upstream = http.request({ host: "127.0.0.1", port: appPort, path: req.url, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

async function waitFor(url, ms = 120_000) {
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

function startApp(dir, port) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hush-bench-"));
  const child = spawn(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      REDIS_URL: "",
      APP_URL: `http://127.0.0.1:${port}`,
      ENCRYPTION_MASTER_KEY: "dGVzdC1rZXktZm9yLWUyZS1vbmx5LTMyLWJ5dGVzISE=",
      NEXTAUTH_SECRET: "bench-nextauth-secret-0123456789abcdef0123456789",
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_API_KEY: "bench",
    },
  });
  return { child, dataDir };
}

// ---------- one measurement ----------
const PAGE_PROBES = () => {
  window.__bench = { longtasks: [], keys: [], opened: null, clickAt: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  document.addEventListener(
    "keydown",
    (e) => {
      const t0 = e.timeStamp;
      requestAnimationFrame(() => setTimeout(() => window.__bench.keys.push(performance.now() - t0), 0));
    },
    true,
  );
  document.addEventListener("click", () => (window.__bench.clickAt = performance.now()), true);
};

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const median = (xs) => quantile(xs, 0.5);

const step = (what) => process.env.BENCH_DEBUG && console.error(`  ${new Date().toISOString().slice(11, 19)} ${what}`);

async function measure(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_PROBES);
  await page.goto(`${base}/chat`);
  const entry = page.getByRole("button", { name: /Bench chat/ }).first();
  await entry.waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2500); // idle: lazy chunks the page preloads arrive
  const openStart = await page.evaluate(() => performance.now());
  // Poll every frame for the last message's marker inside the viewport.
  const shown = page.evaluate(
    () =>
      new Promise((resolve) => {
        const tick = () => {
          const hit = document.evaluate("//*[contains(text(),'ZZLASTMESSAGEZZ')]", document.body, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
          const r = hit?.getBoundingClientRect();
          if (r && r.bottom > 0 && r.top < window.innerHeight) resolve(performance.now());
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  step("open");
  await entry.click();
  const shownAt = await Promise.race([shown, new Promise((r) => setTimeout(() => r(null), 60_000))]);
  if (shownAt === null) {
    await page.screenshot({ path: "bench-open-timeout.png" });
    throw new Error("the last message was not shown within 60 s (screenshot: bench-open-timeout.png)");
  }
  const clickAt = await page.evaluate(() => window.__bench.clickAt);
  await page.waitForTimeout(500);
  const openTasks = await page.evaluate((t) => window.__bench.longtasks.filter((x) => x.start >= t), openStart);

  // Stream an answer while typing.
  const input = page.getByPlaceholder("Message GPT");
  await input.click();
  await input.fill("Write a long answer");
  const streamStart = await page.evaluate(() => {
    window.__bench.keys = [];
    return performance.now();
  });
  step("send");
  await input.press("Enter");
  await page.getByRole("button", { name: "Stop generating" }).waitFor();
  const streamDone = page.getByRole("button", { name: "Send message" }).waitFor({ timeout: 180_000 });
  let typing = true;
  streamDone.then(() => (typing = false));
  const typer = (async () => {
    while (typing) {
      await page.keyboard.press("KeyA");
      await page.waitForTimeout(KEY_EVERY_MS);
    }
  })();
  step("streaming");
  await streamDone;
  step("stream done");
  await typer;
  const streamEnd = await page.evaluate(() => performance.now());
  const result = await page.evaluate(({ s, e }) => ({ keys: window.__bench.keys, tasks: window.__bench.longtasks.filter((x) => x.start >= s && x.start <= e) }), {
    s: streamStart,
    e: streamEnd,
  });
  await context.close();
  const busy = result.tasks.reduce((a, t) => a + t.duration, 0);
  return {
    openMs: shownAt - clickAt,
    openLongest: Math.max(0, ...openTasks.map((t) => t.duration)),
    streamSeconds: (streamEnd - streamStart) / 1000,
    longTasks: result.tasks.length,
    longestTask: Math.max(0, ...result.tasks.map((t) => t.duration)),
    blockedShare: busy / (streamEnd - streamStart),
    keys: result.keys.length,
    keyP50: median(result.keys),
    keyP95: quantile(result.keys, 0.95),
    keyMax: Math.max(...result.keys),
  };
}

// ---------- main ----------
const running = [];
const proxies = [];
try {
  for (const [i, t] of targets.entries()) {
    t.appPort = BASE_PORT + 10 + i;
    t.proxyPort = BASE_PORT + 20 + i;
    running.push(startApp(t.dir, t.appPort));
    proxies.push(await startProxy(t.proxyPort, t.appPort));
  }
  for (const t of targets) await waitFor(`http://127.0.0.1:${t.appPort}/`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  for (const t of targets) t.runs = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) {
      const r = await measure(browser, `http://127.0.0.1:${t.proxyPort}`);
      t.runs.push(r);
      console.log(
        `round ${round} ${t.name.padEnd(9)} open ${r.openMs.toFixed(0)} ms (longest task ${r.openLongest.toFixed(0)} ms) | ` +
          `stream ${r.streamSeconds.toFixed(1)} s: ${r.longTasks} tasks > 50 ms, longest ${r.longestTask.toFixed(0)} ms, ` +
          `blocked ${(100 * r.blockedShare).toFixed(0)}% | keydown-to-paint p50 ${r.keyP50.toFixed(0)} p95 ${r.keyP95.toFixed(0)} max ${r.keyMax.toFixed(0)} ms (${r.keys} keys)`,
      );
    }
  }
  await browser.close();

  const rows = [
    ["open: last messages shown (ms)", "openMs", "< 300"],
    ["open: longest task (ms)", "openLongest", "<= 50"],
    ["stream: tasks > 50 ms (count)", "longTasks", "0"],
    ["stream: longest task (ms)", "longestTask", "<= 50"],
    ["stream: main thread blocked (share)", "blockedShare", ""],
    ["keydown-to-paint p95 (ms)", "keyP95", "<= 50"],
    ["keydown-to-paint p50 (ms)", "keyP50", ""],
  ];
  console.log(`\n${MESSAGES}-message chat, ${ANSWER_TOKENS}-token answer, medians of ${ROUNDS} interleaved rounds`);
  console.log(`${"metric".padEnd(38)}${"goal".padStart(8)}${targets.map((t) => t.name.padStart(12)).join("")}${targets.length > 1 ? "   this/ref" : ""}`);
  for (const [label, key, goal] of rows) {
    const values = targets.map((t) => median(t.runs.map((r) => r[key])));
    const fmt = (v) => (key === "blockedShare" ? `${(100 * v).toFixed(0)}%` : v.toFixed(0)).padStart(12);
    const ratio = values.length > 1 && values[0] > 0 ? `   ${(values[1] / values[0]).toFixed(2)}×` : "";
    console.log(`${label.padEnd(38)}${goal.padStart(8)}${values.map(fmt).join("")}${ratio}`);
  }
} finally {
  for (const p of proxies) p.close();
  for (const { child, dataDir } of running) {
    child.kill("SIGTERM");
    setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 1000);
  }
  setTimeout(() => process.exit(0), 1500);
}
