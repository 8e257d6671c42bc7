#!/usr/bin/env node
/**
 * The chat page while a long answer streams into a long chat (docs/issues.md #12 "Chat page", docs/issues.md #9 "Long chats
 * stay fast"), in Chromium, against production builds:
 *   open:   time from clicking a saved 1,000-message chat in the sidebar to its last message on screen;
 *           main-thread long tasks (> 50 ms, PerformanceObserver "longtask") while it opens;
 *   stream: a 4,000-token Markdown answer (paragraphs, lists, code) streams in while a key is typed into
 *           the input every 120 ms; keydown-to-paint per key (keydown's timestamp to the first task after
 *           the next animation frame) and long tasks during the stream.
 *
 * How the chat gets there: a small Node proxy in front of each app serves the signed-in parts the page
 * asks for, in the exact JSON shapes of the real routes, from a zero-access vault made here with the
 * app's own lib/browser/vault/seal.ts (docs/issues.md #8): GET /api/me, /api/check_account_status, /api/check_stripe_status;
 * GET /api/vault (one recovery-code method wrapping a vault key made for this run); POST /api/vault/unlock;
 * GET /api/ns/chat_history (one chat, its title sealed) and /api/ns/chat_history/<id> (1,000 sealed
 * messages); POST /api/ns/chat_user as the app's own SSE stream (`delta` events, then `done`), 4 tokens
 * every 20 ms; POST /api/ns/chat_save answered 200 (the browser seals the turn, the proxy drops it).
 * Everything else (pages, scripts, CSS, fonts) goes to the real app. The page unlocks the vault with the
 * recovery code in the sidebar (the browser unwraps the key and decrypts the titles) before anything is
 * timed; "open" starts at the click on the chat in the unlocked sidebar and includes fetching and
 * decrypting its 1,000 messages. So the page runs its real code paths with no test hook in the app.
 *
 *   npx next build   # in this tree (and in a reference tree, e.g. a worktree of main, if comparing)
 *   npx tsx bench/chat-page.mjs [--ref-dir <reference tree>] [--dir .] [--rounds 3] [--port 5650]
 *   (tsx: the vault fixtures are sealed with lib/browser/vault/seal.ts; BENCH_PROFILE=1 adds one uncounted run
 *   of this tree under the CDP CPU profiler, writes bench-chat-open.cpuprofile and
 *   bench-chat-stream.cpuprofile and prints their top self-time functions)
 *
 * Targets are measured interleaved (ref, this, ref, this, ...); the report gives medians over rounds and
 * this/reference ratios. Goals (docs/issues.md #12): no task over 50 ms while streaming, keydown-to-paint p95
 * <= 50 ms, last messages shown < 300 ms after opening.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { generateVaultKey, importVaultKey } from "../lib/browser/vault/crypto.ts";
import { recoveryMethod, sealTurn } from "../lib/browser/vault/seal.ts";

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

// ---------- the vault the proxy serves (docs/issues.md #8), sealed as the browser would ----------
const USER_ID = "00000000-0000-4000-8000-00000000b0b0";
const CHAT_ID = crypto.randomUUID();
const TITLE = "Bench chat with a thousand messages";
const vaultRaw = generateVaultKey();
const vaultKey = await importVaultKey(vaultRaw);
const recovery = await recoveryMethod(vaultRaw, USER_ID);
const RECOVERY_CODE = recovery.code;
const NOW = new Date().toISOString();
/** GET /api/vault's body (lib/server/vault/server.ts vaultStateJson). */
const VAULT_JSON = {
  user_id: USER_ID,
  exists: true,
  history_on: true,
  last_unlock_at: NOW,
  methods: [{ ...recovery.method, credential_id: null, created_at: NOW, last_used_at: NOW }],
};
const sealed = await sealTurn({ key: vaultKey, userId: USER_ID, chatId: CHAT_ID, create: true, firstPosition: 0, messages: chat, title: TITLE });
/** GET /api/ns/chat_history's body (lib/server/chat/history.ts historyPage). */
const HISTORY_JSON = {
  chat_history: [{ chat_id: CHAT_ID, display_name: null, display_name_ciphertext: sealed.title_ciphertext, last_updated: NOW }],
  next_cursor: null,
};
/** GET /api/ns/chat_history/{id}'s body (lib/server/chat/history.ts historyChat). */
const CHAT_JSON = JSON.stringify({
  chat_id: CHAT_ID,
  display_name: null,
  display_name_ciphertext: sealed.title_ciphertext,
  tree_ciphertext: null,
  created_at: NOW,
  last_updated: NOW,
  messages: sealed.messages.map((m, position) => ({ role: m.role, content: "", position, content_ciphertext: m.content_ciphertext, attachment_ciphertext: m.attachment_ciphertext })),
});

// ---------- proxy in front of each app ----------
/** The turns the page saved (POST /api/ns/chat_save), to check each run appended its turn to the chat. */
const saves = [];
function startProxy(port, appPort) {
  const json = (res, body) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "private, no-store" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const drain = (req, then) => {
    const body = [];
    req.on("data", (c) => body.push(c));
    req.on("end", () => then(Buffer.concat(body).toString()));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/api/me") return json(res, { user: { email: "bench@hush.test" } });
    if (url.pathname === "/api/check_account_status") return json(res, { account_deleted: false });
    if (url.pathname === "/api/check_stripe_status") return json(res, { plan: "Free", status: "none" });
    if (url.pathname === "/api/vault" && req.method === "GET") return json(res, VAULT_JSON);
    if (url.pathname === "/api/vault/unlock" && req.method === "POST")
      return drain(req, (b) => json(res, { ok: true, method_id: JSON.parse(b).method_id ?? null }));
    if (url.pathname === "/api/ns/chat_history") return json(res, HISTORY_JSON);
    if (url.pathname === `/api/ns/chat_history/${CHAT_ID}`) return json(res, CHAT_JSON);
    if (url.pathname === "/api/ns/chat_save" && req.method === "POST")
      return drain(req, (b) => {
        const body = JSON.parse(b);
        saves.push({ chat_id: body.chat_id, create: body.create, first_position: body.first_position, messages: body.messages.length });
        json(res, { chat_id: body.chat_id, last_updated: new Date().toISOString() });
      });
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
        const done = {
          messages: [...sent, { role: "assistant", content: TOKENS.join("") }],
          chat_id: null,
          attachment: null,
          document: null,
          context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false },
        };
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
  // As `npm start` runs it (server.mjs, docs/issues.md #24); `next start` for a checkout from before it.
  const server = existsSync(path.join(dir, "server.mjs")) ? ["server.mjs"] : [path.join(dir, "node_modules/next/dist/bin/next"), "start"];
  const child = spawn(process.execPath, [...server, "-p", String(port), "-H", "127.0.0.1"], {
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

/**
 * Write a CDP CPU profile (open it in Chrome DevTools' Performance panel) and print its top self-time
 * functions with their source file, so the cost can be traced to an app component.
 */
function saveProfile(phase, profile) {
  const file = `bench-chat-${phase}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  const dt = new Map();
  profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const where = f.url ? `${f.url.replace(/^.*\/_next\//, "_next/")}:${f.lineNumber + 1}:${f.columnNumber + 1}` : "";
    const k = `${f.functionName || "(anonymous)"} ${where}`;
    self.set(k, (self.get(k) ?? 0) + (dt.get(n.id) ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`profile ${phase} (${file}), top self time of ${(total / 1000).toFixed(0)} ms sampled:`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
}

/**
 * Write the stream's Chromium timeline trace (bench-chat-stream.trace.json, for DevTools' Performance
 * panel) and print where the main thread's tasks over 50 ms spent their time: self time per trace event
 * (Layout, UpdateLayoutTree = style, Paint, FunctionCall = JavaScript, ...).
 */
function summarizeTrace(buffer) {
  writeFileSync("bench-chat-stream.trace.json", buffer);
  const events = JSON.parse(buffer.toString()).traceEvents ?? [];
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && events.some((x) => x.pid === e.pid && x.name === "FunctionCall"));
  if (!main) return console.log("trace: no renderer main thread found");
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && typeof e.dur === "number").sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map();
  let tasks = 0;
  let inTasks = 0;
  for (const task of mine.filter((e) => e.name === "RunTask" && e.dur > 50_000)) {
    tasks++;
    inTasks += task.dur;
    const inside = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
    const stack = [{ e: task, child: 0 }];
    const close = (until) => {
      while (stack.length > 1 && stack.at(-1).e.ts + stack.at(-1).e.dur <= until) {
        const { e, child } = stack.pop();
        self.set(e.name, (self.get(e.name) ?? 0) + e.dur - child);
      }
    };
    for (const e of inside) {
      close(e.ts);
      stack.at(-1).child += e.dur;
      stack.push({ e, child: 0 });
    }
    close(Infinity);
    self.set("RunTask (other)", (self.get("RunTask (other)") ?? 0) + task.dur - stack[0].child);
  }
  console.log(`trace (bench-chat-stream.trace.json): ${tasks} main-thread tasks > 50 ms, ${(inTasks / 1000).toFixed(0)} ms; self time in them by event:`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 10))
    console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / inTasks).toFixed(1).padStart(5)}%  ${name}`);
}

async function measure(browser, base, profile = false) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(PAGE_PROBES);
  await page.goto(`${base}/chat`);
  // Unlock the vault as a user would (not timed): the recovery code in the sidebar's unlock panel.
  step("unlock");
  const sidebar = page.getByRole("complementary", { name: "Chat history" });
  await sidebar.getByLabel("Recovery code").fill(RECOVERY_CODE, { timeout: 30_000 });
  await sidebar.getByRole("button", { name: "Unlock", exact: true }).click();
  const entry = sidebar.getByRole("button", { name: new RegExp(`^${TITLE}`) }).first();
  await entry.waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2500); // idle: lazy chunks the page preloads arrive
  const cdp = profile ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
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
  if (cdp) {
    saveProfile("open", (await cdp.send("Profiler.stop")).profile);
    await cdp.send("Profiler.start");
  }

  // Stream an answer while typing.
  const input = page.getByPlaceholder("Message GPT");
  await input.click();
  await input.fill("Write a long answer");
  const streamStart = await page.evaluate(() => {
    window.__bench.keys = [];
    return performance.now();
  });
  const tracing = profile ? browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] }) : null;
  if (tracing) await tracing;
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
  if (cdp) saveProfile("stream", (await cdp.send("Profiler.stop")).profile);
  if (tracing) summarizeTrace(await browser.stopTracing());
  // The page seals and saves the turn after the stream: it must append 2 messages to the opened chat.
  await page.waitForTimeout(300);
  const save = saves.pop();
  if (!save || save.chat_id !== CHAT_ID || save.create || save.first_position !== MESSAGES || save.messages !== 2)
    throw new Error(`the turn was not saved as an append to the opened chat: ${JSON.stringify(save ?? null)}`);
  saves.length = 0;
  if (process.env.BENCH_SHOT) await page.screenshot({ path: process.env.BENCH_SHOT });
  const result = await page.evaluate(({ s, e }) => ({ keys: window.__bench.keys, tasks: window.__bench.longtasks.filter((x) => x.start >= s && x.start <= e) }), {
    s: streamStart,
    e: streamEnd,
  });
  await context.close();
  const busy = result.tasks.reduce((a, t) => a + t.duration, 0);
  return {
    openMs: shownAt - clickAt,
    openLongest: Math.max(0, ...openTasks.map((t) => t.duration)),
    openLongTasks: openTasks.length,
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
        `round ${round} ${t.name.padEnd(9)} open ${r.openMs.toFixed(0)} ms (${r.openLongTasks} tasks > 50 ms, longest ${r.openLongest.toFixed(0)} ms) | ` +
          `stream ${r.streamSeconds.toFixed(1)} s: ${r.longTasks} tasks > 50 ms, longest ${r.longestTask.toFixed(0)} ms, ` +
          `blocked ${(100 * r.blockedShare).toFixed(0)}% | keydown-to-paint p50 ${r.keyP50.toFixed(0)} p95 ${r.keyP95.toFixed(0)} max ${r.keyMax.toFixed(0)} ms (${r.keys} keys)`,
      );
    }
  }
  if (process.env.BENCH_PROFILE) {
    // One more run of the last target under the CPU profiler (not counted: the profiler slows the page).
    const t = targets[targets.length - 1];
    const r = await measure(browser, `http://127.0.0.1:${t.proxyPort}`, true);
    console.log(`profiled run ${t.name} (not counted): open ${r.openMs.toFixed(0)} ms, stream ${r.longTasks} tasks > 50 ms, longest ${r.longestTask.toFixed(0)} ms, keydown-to-paint p95 ${r.keyP95.toFixed(0)} ms`);
  }
  await browser.close();

  const rows = [
    ["open: last messages shown (ms)", "openMs", "< 300"],
    ["open: tasks > 50 ms (count)", "openLongTasks", ""],
    ["open: longest task (ms)", "openLongest", ""],
    ["stream: tasks > 50 ms (count)", "longTasks", "0"],
    ["stream: longest task (ms)", "longestTask", "<= 50"],
    ["stream: main thread blocked (share)", "blockedShare", ""],
    ["keydown-to-paint p95 (ms)", "keyP95", "<= 50"],
    ["keydown-to-paint p50 (ms)", "keyP50", ""],
  ];
  // --json <file>: this build's medians (the last target), for bench/issue12.mjs.
  if (args.json) {
    const t = targets[targets.length - 1];
    const m = Object.fromEntries(rows.map(([, key]) => [key, median(t.runs.map((r) => r[key]))]));
    writeFileSync(args.json, JSON.stringify({ rounds: ROUNDS, medians: m, runs: t.runs.map(({ keys, ...r }) => ({ ...r, keys })) }));
  }
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
