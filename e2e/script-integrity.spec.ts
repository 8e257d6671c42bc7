import { readdirSync, readFileSync } from "node:fs";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { sri384 } from "../lib/server/security/sri";
import { makeDocx } from "../tests/helpers/docx";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #54 finding 2, docs/verify.md "Subresource Integrity": every script the app runs is checked
 * before it runs, the chunks Next's runtime loads later included (lazy imports, client navigation, workers and
 * the chunks they load). Service workers are blocked so the network answers every request and the page's own
 * check is the one tested.
 */
test.use({ baseURL: LOCAL, serviceWorkers: "block", viewport: { width: 1280, height: 800 } });

const PASSPHRASE = "integrity guards the lighthouse keeper";
/** What a tampered chunk appends: a request that can only be made if the appended code runs. */
const RAN = "/api/__tampered-chunk-ran";
const MARK = `;try{fetch(${JSON.stringify(RAN)}+"?at="+encodeURIComponent(self.location.href),{method:"POST"}).catch(function(){})}catch(e){}`;

/** The `<script src>` of `html` (URL paths). */
function scriptSrcs(html: string): Set<string> {
  return new Set([...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, "&"), LOCAL).pathname));
}

/** The URL Turbopack starts a worker of this build from (its bootstrap, with its chunks in the fragment). */
function workerOfBuild(): string {
  const dir = ".next/static/chunks";
  for (const file of readdirSync(dir)) {
    const found = /\.f\("(static\/chunks\/turbopack-worker-[^"]+\.js)",(\[[^\]]*\])\)/.exec(readFileSync(`${dir}/${file}`, "utf8"));
    if (!found) continue;
    const chunks = (JSON.parse(found[2]!) as string[]).map((c) => `/_next/${c}`).reverse();
    return `${LOCAL}/_next/${found[1]}#params=${encodeURIComponent(JSON.stringify([chunks, "", "/_next/", null, null]))}`;
  }
  throw new Error("no worker in this build");
}

/** Integrity refusals Chromium reports, from the page and from its workers. */
function watchRefusals(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/integrity|digest/i.test(m.text())) seen.push(m.text());
  });
  page.on("worker", (w) => w.on("console", (m) => (/integrity|digest/i.test(m.text()) ? seen.push(m.text()) : undefined)));
  page.on("requestfailed", (r) => {
    if (/integrity/i.test(r.failure()?.errorText ?? "")) seen.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  return seen;
}

/** Serve every script under /_next/static except `keep` with MARK appended; returns the paths served tampered. */
async function tamperLaterChunks(context: BrowserContext, keep: Set<string>): Promise<{ tampered: string[]; ran: string[] }> {
  const tampered: string[] = [];
  const ran: string[] = [];
  await context.route(`**${RAN}*`, async (route) => {
    ran.push(new URL(route.request().url()).searchParams.get("at") ?? "?");
    await route.fulfill({ status: 204 });
  });
  await context.route("**/_next/static/**/*.js*", async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (keep.has(path)) return route.continue();
    const response = await route.fetch();
    tampered.push(path);
    await route.fulfill({ response, body: `${await response.text()}${MARK}` });
  });
  return { tampered, ran };
}

test("after using every feature, every script element and worker script was integrity-checked", async ({ page }) => {
  test.slow(); // sign-in, Argon2id, a PDF and the search index on a loaded machine
  const refusals = watchRefusals(page);
  const workerScripts: string[] = [];
  page.on("worker", (w) => workerScripts.push(w.url()));
  await signInOnLocalhost(page, `sri-${Date.now()}@example.com`);
  // Passphrase strength (its worker), the vault's crypto and sealing.
  await turnOnHistoryWithPassphrase(page, PASSPHRASE);
  // A saved chat (sealing), with a PDF read in the browser (its worker).
  await page.getByTestId("file-input").setInputFiles({ name: "multipage.pdf", mimeType: "application/pdf", buffer: readFileSync("tests/fixtures/multipage.pdf") });
  await expect(page.getByTestId("attachment-chip").or(page.getByText("multipage.pdf")).first()).toBeVisible();
  // A Word file, read in the browser by its own worker.
  const docx = await makeDocx(["Heron count for the pier, by tide."]);
  await page.getByTestId("file-input").setInputFiles({ name: "herons.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: docx });
  await expect(page.getByText("herons.docx").first()).toBeVisible();
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Count the herons on the pier");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("Count the herons on the pier");
  // Client navigation to Settings, and memory (its sealing).
  await page.getByRole("link", { name: "Settings" }).first().click();
  const memory = page.getByTestId("memory-section");
  await memory.getByLabel("New memory").fill("I keep bees");
  await memory.getByRole("button", { name: "Add memory" }).click();
  await expect(memory.getByRole("list", { name: "Memories" })).toContainText("I keep bees");
  await page.getByRole("link", { name: "Chat", exact: true }).first().click();
  await expect(sidebarOf(page).getByRole("button", { name: /^Count the herons/ })).toBeVisible();

  // Every script element: an integrity equal to the SHA-384 of the file served.
  const scripts = await page.evaluate(() => [...document.querySelectorAll("script[src]")].map((s) => ({ src: (s as HTMLScriptElement).src, integrity: s.getAttribute("integrity") })));
  expect(scripts.length).toBeGreaterThan(10);
  for (const s of scripts) {
    const body = Buffer.from(await (await page.request.get(s.src)).body());
    expect(s.integrity, `${s.src} has integrity`).toBe(sri384(body));
  }
  // Workers ran (at least strength, PDF and Word), and none from a URL the page did not verify first.
  expect(workerScripts.length, "workers started").toBeGreaterThanOrEqual(3);
  for (const url of workerScripts) expect(url, "a worker starts from verified code").toMatch(/^blob:/);
  expect(refusals).toEqual([]);
});

test("lazily loaded chunks, navigation chunks and worker code served tampered are refused and never run", async ({ page, context }) => {
  test.slow();
  const refusals = watchRefusals(page);
  await signInOnLocalhost(page, `sri-tamper-${Date.now()}@example.com`);
  const firstLoad = scriptSrcs(await (await page.request.get("/chat")).text());
  expect(firstLoad.size).toBeGreaterThan(0);
  const { tampered, ran } = await tamperLaterChunks(context, firstLoad);
  await page.goto("/chat");
  // A lazily loaded dialog, the passphrase field (its strength worker) and client navigation. Each step may
  // fail once its code is refused, as it should; the checks below are what matter.
  const attempt = (step: Promise<unknown>) => step.catch(() => undefined);
  await attempt(page.getByTestId("model-privacy-badge").click({ timeout: 5000 }));
  await page.waitForTimeout(1000);
  await page.keyboard.press("Escape");
  await attempt(sidebarOf(page).getByRole("switch", { name: "Save history" }).click({ timeout: 5000 }));
  const dialog = page.getByRole("dialog", { name: "Save chat history?" });
  await attempt(dialog.getByRole("button", { name: "Use a passphrase" }).click({ timeout: 5000 }));
  await attempt(dialog.getByLabel("Passphrase", { exact: true }).fill(PASSPHRASE, { timeout: 5000 }));
  await page.waitForTimeout(1500);
  await page.keyboard.press("Escape");
  // A worker of the build started as Turbopack starts one: its bootstrap and chunks are served tampered.
  const worker = workerOfBuild();
  const started = await page.evaluate(async (url) => {
    const w = new Worker(url, { name: "hush-strength" });
    const outcome = await new Promise<string>((resolve) => {
      w.onmessage = () => resolve("answered");
      w.onerror = () => resolve("error");
      w.postMessage({ hush: "strength", id: 1, passphrase: "correct horse battery staple" });
      setTimeout(() => resolve("silent"), 5000);
    });
    w.terminate();
    return outcome;
  }, worker);
  expect(started, "the tampered worker never answers").not.toBe("answered");
  await attempt(page.getByRole("link", { name: "Settings" }).first().click({ timeout: 5000 }));
  await page.waitForLoadState("networkidle");
  expect(tampered.length, "later chunks were requested (and served tampered)").toBeGreaterThan(0);
  expect(ran, "tampered code that ran").toEqual([]);
  expect(refusals.length, "integrity refusals").toBeGreaterThan(0);
});
