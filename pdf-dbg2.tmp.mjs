import { chromium } from "playwright";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const ctx = await b.newContext();
const p = await ctx.newPage();
ctx.on("request", (r) => { if (r.url().includes("static/chunks")) console.log("ctxreq:", r.url().slice(-60)); });
ctx.on("requestfailed", (r) => console.log("failed:", r.url().slice(-60), r.failure()?.errorText));
p.on("console", (m) => console.log("console:", m.type(), m.text()));
p.on("worker", async (w) => {
  console.log("worker:", w.url().slice(0, 80));
  w.on("console", (m) => console.log("wconsole:", m.text()));
  await new Promise((r) => setTimeout(r, 1500));
  try { console.log("in worker:", await w.evaluate(() => JSON.stringify({ pdfjsWorker: typeof globalThis.pdfjsWorker, onmessage: typeof self.onmessage, T: typeof globalThis.TURBOPACK, keys: Object.keys(self).filter(k=>k.startsWith("TURBO")) }))); } catch (e) { console.log("eval failed", e.message); }
});
await p.goto("http://127.0.0.1:3200/chat");
await p.getByTestId("file-input").setInputFiles("tests/fixtures/e2e-report.pdf");
await p.waitForTimeout(15000);
console.log("staged:", await p.getByTestId("staged-file").count());
await b.close();
