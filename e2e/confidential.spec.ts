import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test, type Browser, type Page, type Request } from "@playwright/test";
import {
  E2E_CONFIDENTIAL_APP_PORT,
  E2E_CONFIDENTIAL_DATA_DIR,
  E2E_CONFIDENTIAL_LOG,
  E2E_ENCLAVE_PORT,
} from "../playwright.config";
import { confidentialServerNote } from "../content/privacy";
import { pdfWithContentStream } from "../tests/helpers/pdf-bomb";
import { signInByEmail } from "./helpers/auth";
import { sidebarOf, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * Confidential inference end to end (docs/issues.md #20), in Chromium against the production build: the app instances
 * and the development enclaves (good and `--tamper`) of playwright.config.ts. A canary in the message must
 * come back in the answer (the development enclave quotes the message), while no request body or URL from
 * the page to Hush's origin, no line of the server's output and no file of its database carries it in clear,
 * base64 or hex.
 * The visitor and saved-chat turns also attach a PDF whose text holds a second canary: the browser reads it
 * (lib/browser/pdf) and the text goes inside the encrypted request only, so the same holds of that canary.
 */
const CONFIDENTIAL_APP = `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}`;
/** The tampered enclave is the same one, switched (setTampered), behind the same app instance. */
const TAMPERED_APP = CONFIDENTIAL_APP;
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-confidential";
const VERIFY_TEXT = "Couldn't verify the secure enclave — your message was not sent.";

function canary(label: string): string {
  return `CANARY${label}${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
}

/** A one-page PDF whose only text line holds `secret`; its content stream is not compressed, so the file's
 *  bytes carry the canary as they are (a leak of the file would show it too). */
function canaryPdf(secret: string): { name: string; mimeType: string; buffer: Buffer } {
  const content = Buffer.from(`BT /F1 12 Tf 72 720 Td (Attached note ${secret}) Tj ET\n`, "latin1");
  return { name: "canary-note.pdf", mimeType: "application/pdf", buffer: pdfWithContentStream(content, { flate: false }) };
}

/** Every encoding of `secret` a leak could take: plain, hex (both cases), base64 at the three alignments. */
function encodings(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = [secret, bytes.toString("hex"), bytes.toString("hex").toUpperCase()];
  for (let pad = 0; pad < 3; pad++) {
    const b64 = Buffer.concat([Buffer.alloc(pad, 0x20), bytes]).toString("base64");
    // Drop the characters that mix in the padding before or the unknown bytes after.
    const start = Math.ceil((pad * 4) / 3) + 1;
    const end = Math.floor(((pad + bytes.length) * 4) / 3) - 1;
    forms.push(b64.slice(start, end), b64.slice(start, end).replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return forms;
}

function leaks(haystack: Buffer | string, secret: string): string | null {
  const text = typeof haystack === "string" ? haystack : haystack.toString("latin1");
  return encodings(secret).find((form) => text.includes(form)) ?? null;
}

/** Record every request the page sends to `origin` (URL and body bytes). */
function recordRequests(page: Page, origin: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin === origin) seen.push(request);
  });
  return seen;
}

function assertNoLeak(requests: Request[], secret: string) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    expect(leaks(request.url(), secret), `URL ${request.url()}`).toBeNull();
    const body = request.postDataBuffer();
    if (body) expect(leaks(body, secret), `body of ${request.method()} ${request.url()}`).toBeNull();
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function openChat(browser: Browser, baseURL: string, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  return { context, page };
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

test("a visitor's confidential turn: the answer has the canary, Hush's server only ever sees ciphertext", async ({ browser }) => {
  const { context, page } = await openChat(browser, CONFIDENTIAL_APP);
  const requests = recordRequests(page, CONFIDENTIAL_APP);
  const secret = canary("VISITOR");
  const pdfSecret = canary("VISITORPDF");
  await page.goto("/chat");
  const badge = page.getByTestId("model-privacy-badge");
  await expect(badge).toHaveText("Verified (development)");

  const input = page.getByPlaceholder("Message GPT");
  await page.getByTestId("file-input").setInputFiles(canaryPdf(pdfSecret));
  await expect(page.getByTestId("staged-file")).toContainText("canary-note.pdf");
  await input.fill(`Please repeat ${secret} back to me`);
  const relayed = page.waitForRequest((r) => r.url().endsWith("/api/confidential/chat"));
  await input.press("Enter");
  const chatRequest = await relayed;
  expect(chatRequest.headers()["x-hush-model"]).toBe("llama3-8b-8192");
  expect(chatRequest.headers()["ehbp-encapsulated-key"]).toMatch(/^[0-9a-f]{64}$/);

  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText(secret);
  // The development enclave quotes the attached document's opening lines.
  await expect(answer).toContainText(pdfSecret);
  await expect(page.locator('[data-role="user"]').last()).toContainText("canary-note.pdf");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  assertNoLeak(requests, secret);
  assertNoLeak(requests, pdfSecret);
  // No standard chat route was used.
  expect(requests.some((r) => r.url().includes("/api/ns/chat"))).toBe(false);

  await page.screenshot({ path: `${SHOTS}/chat-badge-desktop.png` });
  await badge.click();
  const dialog = page.getByRole("dialog", { name: "Confidential model (development)" });
  await expect(dialog).toBeVisible();
  const receipt = dialog.getByTestId("confidential-receipt");
  await expect(receipt).toContainText("Development enclave");
  await expect(receipt).toContainText(`127.0.0.1:`);
  await expect(receipt).toContainText("Code measurement");
  await expect(receipt).toContainText("Signed source release");
  await expect(receipt).toContainText("development");
  await expect(dialog.getByTestId("receipt-transport")).toContainText(/\d+ (bytes|KB) of ciphertext sent/);
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/receipt-desktop.png` });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await context.close();

  // Phone layout: the badge beside the model name, the receipt readable and closable.
  const phone = await openChat(browser, CONFIDENTIAL_APP, { width: 390, height: 844 });
  await phone.page.goto("/chat");
  const phoneBadge = phone.page.getByTestId("model-privacy-badge");
  await expect(phoneBadge).toHaveText("Verified (development)");
  await expect(phoneBadge).toBeInViewport();
  await phone.page.screenshot({ path: `${SHOTS}/chat-badge-phone.png` });
  await phoneBadge.focus();
  await phone.page.keyboard.press("Enter");
  const phoneDialog = phone.page.getByRole("dialog", { name: "Confidential model (development)" });
  await expect(phoneDialog).toBeVisible();
  await expect(phoneDialog.getByRole("button", { name: "Close" })).toBeInViewport();
  await phone.page.screenshot({ path: `${SHOTS}/receipt-phone.png` });
  await phone.page.keyboard.press("Escape");
  await expect(phoneDialog).toBeHidden();
  await phone.context.close();
});

test("a signed-in saved chat's confidential turn: answered, saved encrypted, the canary nowhere on the server", async ({ browser }) => {
  const { context, page } = await openChat(browser, CONFIDENTIAL_APP);
  await signInByEmail(page, `confidential-${Date.now()}@example.test`);
  await turnOnHistoryWithPassphrase(page, "correct horse battery staple confidential");
  const requests = recordRequests(page, CONFIDENTIAL_APP);
  const secret = canary("SAVED");
  const pdfSecret = canary("SAVEDPDF");

  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  const input = page.getByPlaceholder("Message GPT");
  await page.getByTestId("file-input").setInputFiles(canaryPdf(pdfSecret));
  await input.fill(`Keep ${secret} between us`);
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/ns/chat_save") && r.request().method() === "POST");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(secret);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(pdfSecret);
  expect((await saved).ok()).toBe(true);
  await expect(sidebarOf(page).getByRole("button", { name: /^Keep CANARY/ })).toBeVisible();

  assertNoLeak(requests, secret);
  assertNoLeak(requests, pdfSecret);
  const confidentialPost = requests.find((r) => r.url().endsWith("/api/confidential/chat"));
  expect(confidentialPost).toBeTruthy();
  // The request carries no chat id: nothing ties the turn to the saved chat.
  expect(confidentialPost!.url()).not.toContain("chat_id");
  await context.close();

  // The server's output and its database files.
  const log = readFileSync(E2E_CONFIDENTIAL_LOG);
  expect(log.byteLength).toBeGreaterThan(0);
  for (const secretOf of [secret, pdfSecret]) {
    expect(leaks(log, secretOf), "server log").toBeNull();
    for (const file of filesUnder(E2E_CONFIDENTIAL_DATA_DIR)) expect(leaks(readFileSync(file), secretOf), file).toBeNull();
  }
});

test("a tampered enclave is refused: nothing is sent, the text stays in the composer, with Retry", async ({ browser }) => {
  // The same enclave, serving a measurement other than the pinned one until the test ends.
  await setTampered(true);
  try {
    await refusedWhileTampered(browser);
  } finally {
    await setTampered(false);
  }
});

async function refusedWhileTampered(browser: Browser): Promise<void> {
  const { context, page } = await openChat(browser, TAMPERED_APP);
  const requests = recordRequests(page, TAMPERED_APP);
  const secret = canary("TAMPER");
  await page.goto("/chat");
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Not verified");

  const input = page.getByPlaceholder("Message GPT");
  await input.fill(`Do not send ${secret}`);
  await input.press("Enter");
  const error = page.getByTestId("chat-error");
  await expect(error).toContainText(VERIFY_TEXT);
  await expect(error).toContainText("verif");
  await expect(input).toHaveValue(`Do not send ${secret}`);
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
  await expect(error.getByRole("button", { name: "Retry" })).toBeVisible();
  expect(requests.some((r) => r.url().includes("/api/confidential/chat") || r.url().includes("/api/ns/chat"))).toBe(false);
  assertNoLeak(requests, secret);
  await page.screenshot({ path: `${SHOTS}/tampered-desktop.png` });
  await context.close();
}

/** Switch the development enclave to a measurement other than the pinned one, or back (its --test-controls). */
async function setTampered(on: boolean): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${E2E_ENCLAVE_PORT}/__test/tamper`, { method: "POST", body: on ? "on" : "off" });
  expect(res.status).toBe(200);
}

/** The enclave's document while tampered, as it signs it for `host` (the relay asks for its configured host). */
async function tamperedDocumentFor(host: string): Promise<string> {
  await setTampered(true);
  try {
    return await new Promise((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port: E2E_ENCLAVE_PORT, path: "/.well-known/tinfoil-attestation", headers: { Host: host } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        })
        .on("error", reject);
    });
  } finally {
    await setTampered(false);
  }
}

test("Retry sends the kept message once the enclave verifies", async ({ browser }) => {
  const { context, page } = await openChat(browser, CONFIDENTIAL_APP);
  const enclaveHost = `127.0.0.1:${Number(process.env.E2E_ENCLAVE_PORT ?? Number(process.env.E2E_APP_PORT ?? 3100) + 5)}`;
  // The relay hands over a document with another measurement (as a tampered enclave would) until unrouted.
  const tampered = await tamperedDocumentFor(enclaveHost);
  await page.route("**/api/confidential/attestation", (route) => route.fulfill({ status: 200, contentType: "application/json", body: tampered }));
  const secret = canary("RETRY");
  await page.goto("/chat");
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Not verified");
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(`Retry with ${secret}`);
  await input.press("Enter");
  const error = page.getByTestId("chat-error");
  await expect(error).toContainText("verif");
  await expect(input).toHaveValue(`Retry with ${secret}`);

  await page.unroute("**/api/confidential/attestation");
  await error.getByRole("button", { name: "Retry" }).click();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(secret);
  await expect(page.getByTestId("chat-error")).toHaveCount(0);
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  await context.close();
});

test("/privacy on a confidential instance names the enclave as each model's provider and says the server relays ciphertext", async ({ page }) => {
  await page.goto(`${CONFIDENTIAL_APP}/privacy`);
  const main = page.locator("main");
  const rows = main.getByTestId("provider-table").locator("tbody tr");
  await expect(rows.locator("th")).toHaveText(["Basic", "Pro"]);
  for (const row of await rows.all()) {
    await expect(row.locator("td").first()).toHaveText(`127.0.0.1:${E2E_ENCLAVE_PORT}`);
    await expect(row.getByTestId("model-privacy-line")).toContainText("Confidential (development enclave: no hardware isolation)");
  }
  await expect(main).toContainText(confidentialServerNote);
  await page.screenshot({ path: `${SHOTS}/privacy-confidential-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // A card per model on a phone: nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `${SHOTS}/privacy-confidential-mobile.png`, fullPage: true });
});
