/**
 * One measurement of bench/chat-page.mjs in a fresh browser context: unlock the vault (not timed), open the chat
 * from the sidebar, then stream an answer while typing, with the page's long tasks and keydown-to-paint times.
 */
import { CHAT_ID, RECOVERY_CODE, TITLE } from "./fixtures.mjs";
import { KEY_EVERY_MS, MESSAGES } from "./options.mjs";
import { saveProfile, summarizeTrace } from "./profile.mjs";
import { saves } from "./proxy.mjs";
import { median, quantile } from "./stats.mjs";

/** Runs in the page before its own scripts: records long tasks, keydown-to-paint times and the last click's time in window.__bench. */
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

/** A progress line on stderr with BENCH_DEBUG set. */
const step = (what) => process.env.BENCH_DEBUG && console.error(`  ${new Date().toISOString().slice(11, 19)} ${what}`);

/**
 * Measure the page behind `base` (a proxy's origin) once in `browser`; `profile` adds the CPU profiler and a timeline
 * trace (profile.mjs). Resolves to { openMs, openLongest, openLongTasks, streamSeconds, longTasks, longestTask,
 * blockedShare, keys, keyP50, keyP95, keyMax } (times in ms, blockedShare 0..1).
 */
export async function measure(browser, base, profile = false) {
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
