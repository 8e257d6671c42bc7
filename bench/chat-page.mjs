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
 *
 * The parts are in bench/chat-page/: options.mjs (command line), fixtures.mjs (the chat, the answer and the sealed
 * vault), proxy.mjs, app.mjs (start-up), measure.mjs (one measurement), profile.mjs (BENCH_PROFILE), report.mjs.
 */
import { rmSync } from "node:fs";
import { chromium } from "@playwright/test";
import { startApp, waitFor } from "./chat-page/app.mjs";
import { measure } from "./chat-page/measure.mjs";
import { args, BASE_PORT, ROUNDS, targets } from "./chat-page/options.mjs";
import { startProxy } from "./chat-page/proxy.mjs";
import { printProfiledRun, printRun, printTable, writeJson } from "./chat-page/report.mjs";

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
      printRun(round, t, r);
    }
  }
  if (process.env.BENCH_PROFILE) {
    // One more run of the last target under the CPU profiler (not counted: the profiler slows the page).
    const t = targets[targets.length - 1];
    const r = await measure(browser, `http://127.0.0.1:${t.proxyPort}`, true);
    printProfiledRun(t, r);
  }
  await browser.close();

  // --json <file>: this build's medians (the last target), for bench/all-goals.mjs.
  if (args.json) writeJson(args.json, targets[targets.length - 1]);
  printTable(targets);
} finally {
  for (const p of proxies) p.close();
  for (const { child, dataDir } of running) {
    child.kill("SIGTERM");
    setTimeout(() => rmSync(dataDir, { recursive: true, force: true }), 1000);
  }
  setTimeout(() => process.exit(0), 1500);
}
