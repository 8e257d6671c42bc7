import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { E2E_CONFIDENTIAL_APP_PORT, E2E_QUOTA_APP_PORT } from "../playwright.config";
import { makeDocx } from "../tests/helpers/docx";
import { newChat } from "./helpers/chat";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #23 end to end against the production build: more file types read in the browser (their text
 * reaches the model, their bytes never reach Hush), share links (ciphertext only on the server, the key
 * in the fragment, revocable), and the installable app (manifest, icons, a service worker that never
 * caches /api).
 */
const SCREENS = "test-results/screens";
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const PHONE = { width: 390, height: 844 };

interface Received {
  messages: { role: string; content: string }[];
}
const received = async (page: Page): Promise<Received[]> => (await page.request.get(`${LLM}/__requests`)).json();

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) })),
    `axe violations on ${label}`,
  ).toEqual([]);
}

async function send(page: Page, text: string) {
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(text);
  await input.press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible({ timeout: 30_000 });
  await expect(input).toHaveValue("");
}

test("text, Markdown, CSV, JSON, source and Word files are read in the browser and their text reaches the model", async ({ page, baseURL }) => {
  const docx = await makeDocx(["Otter survey plan for the Waikato river.", "Budget: forty thousand dollars."]);
  const files = [
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Plain notes: the kettle is blue.\n"), expect: "the kettle is blue" },
    { name: "readme.md", mimeType: "text/markdown", buffer: Buffer.from("# Heading\n\nMarkdown says *hello otters*.\n"), expect: "Markdown says *hello otters*." },
    { name: "data.csv", mimeType: "text/csv", buffer: Buffer.from("city,count\nAuckland,42\nSydney,17\n"), expect: "Auckland,42" },
    { name: "config.json", mimeType: "application/json", buffer: Buffer.from('{"feature":"share-links","enabled":true}'), expect: '"feature":"share-links"' },
    { name: "main.py", mimeType: "", buffer: Buffer.from("def greet():\n    return 'kia ora'\n"), expect: "return 'kia ora'" },
    {
      name: "plan.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: docx,
      expect: "Otter survey plan for the Waikato river.",
    },
  ];
  const bodies: { url: string; body: Buffer | null }[] = [];
  page.context().on("request", (r) => {
    if (new URL(r.url()).origin === new URL(baseURL!).origin) bodies.push({ url: r.url(), body: r.postDataBuffer() });
  });
  await page.request.delete(`${LLM}/__requests`);
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();

  for (const file of files) {
    await page.getByTestId("file-input").setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
    await expect(page.getByTestId("staged-file")).toContainText(file.name);
    await expect(page.getByTestId("staged-file")).not.toHaveAttribute("data-reading", "true");
    if (file.name === "plan.docx") {
      await page.screenshot({ path: `${SCREENS}/files-staged-docx-desktop.png` });
      await page.setViewportSize(PHONE);
      await page.screenshot({ path: `${SCREENS}/files-staged-docx-phone.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await send(page, `What is in ${file.name}?`);
    const latest = (await received(page)).at(-1)!.messages.at(-1)!;
    expect(latest.role).toBe("user");
    expect(latest.content, file.name).toContain(`<document name="${file.name}">`);
    expect(latest.content, file.name).toContain(file.expect);
    await expect(page.locator('[data-role="user"]').last()).toContainText(file.name);
  }
  await page.screenshot({ path: `${SCREENS}/files-sent-desktop.png`, fullPage: true });
  // The Word file's bytes never left the browser: no request carries its zip (raw or base64).
  for (const { url, body } of bodies) {
    if (!body) continue;
    const text = body.toString("latin1");
    for (const form of ["PK\u0003\u0004", docx.subarray(0, 30).toString("base64").slice(0, 24), "word/document.xml"]) {
      expect(text.includes(form), `${url} carries the .docx`).toBe(false);
    }
  }
});

test("with a confidential model, a text file's and a Word document's text reach the enclave but never Hush's server in clear", async ({ browser }) => {
  // Like PDFs (e2e/confidential.spec.ts): the browser reads the file and the text travels inside the
  // request encrypted to the enclave; the development enclave quotes the document back.
  const origin = `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}`;
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const bodies: Buffer[] = [];
  const urls: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin !== origin) return;
    urls.push(r.url());
    const body = r.postDataBuffer();
    if (body) bodies.push(body);
  });
  for (const [i, { secret, file }] of [
    { secret: `TXTCANARY${Date.now()}`, file: (s: string) => ({ name: "secret-notes.txt", mimeType: "text/plain", buffer: Buffer.from(`${s} is the word.\n`) }) },
    { secret: `DOCXCANARY${Date.now()}`, file: async (s: string) => ({ name: "secret-plan.docx", mimeType: "", buffer: await makeDocx([`${s} is the word.`]) }) },
  ].entries()) {
    // A fresh conversation per file: the development enclave quotes the conversation's first document. In this
    // tab /chat brings the last file's conversation back, so the user starts a new one.
    await page.goto("/chat");
    if (i > 0) await newChat(page);
    await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
    const chosen = await file(secret);
    await page.getByTestId("file-input").setInputFiles(chosen);
    await expect(page.getByTestId("staged-file")).toContainText(chosen.name);
    await expect(page.getByTestId("staged-file")).not.toHaveAttribute("data-reading", "true");
    await send(page, "What does the file say?");
    await expect(page.locator('[data-role="assistant"]').last()).toContainText(secret);
    const forms = [secret, Buffer.from(secret).toString("base64").slice(0, 12), Buffer.from(secret).toString("hex")];
    for (const body of bodies) for (const form of forms) expect(body.toString("latin1").includes(form), `a request body carries ${form}`).toBe(false);
    for (const url of urls) expect(url.includes(secret)).toBe(false);
  }
  expect(urls.some((u) => u.includes("/api/ns/chat"))).toBe(false);
  await context.close();
});

test("an image for a model that cannot read images, and an unsupported file, get clear messages", async ({ browser }) => {
  // The quota instance's models read text only (the main one's Basic model reads images: e2e/vision.spec.ts).
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${E2E_QUOTA_APP_PORT}`, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/chat");
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Describe this");
  const error = page.getByTestId("chat-error");
  await page.getByTestId("file-input").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: readFileSync("tests/fixtures/not-a-pdf.png") });
  await expect(error).toHaveText("The Basic model cannot read images. Attach the text instead, or describe the image in your message.");
  await expect(page.getByTestId("staged-file")).toHaveCount(0);
  await expect(input).toHaveValue("Describe this");
  await page.screenshot({ path: `${SCREENS}/files-image-refused-desktop.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SCREENS}/files-image-refused-phone.png` });
  await page.getByTestId("file-input").setInputFiles({ name: "archive.zip", mimeType: "application/zip", buffer: Buffer.from("PK\u0003\u0004") });
  await expect(error).toHaveText("Sorry, this filetype is not supported in this demo yet. Try a PDF.");
  await page.getByTestId("file-input").setInputFiles({ name: "blob.txt", mimeType: "text/plain", buffer: Buffer.from([0x00, 0x01, 0x02, 0x41]) });
  await expect(error).toHaveText("This file does not contain text Hush can read. Try a text, Markdown, CSV, JSON, source code, Word or PDF file.");
  await context.close();
});

test("a saved chat is shared by link: the server holds only ciphertext, a fresh browser reads it, and revoking ends it", async ({ page, browser }) => {
  test.slow(); // vault setup (Argon2id), sign-in by e-mail, two fresh contexts
  const SECRET = "zebra migration budget is 41 thousand";
  await signInOnLocalhost(page, `sharer-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, "lanterns drift over quiet harbours");
  await send(page, `Plan the ${SECRET}`);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(`You asked: Plan the ${SECRET}`);
  await expect(sidebarOf(page).getByRole("button", { name: /^Plan the zebra/ })).toBeVisible();

  const posted: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/shares") && r.method() === "POST") posted.push(r.postData() ?? "");
  });
  await page.getByRole("button", { name: "Chat options" }).click();
  await expect(page.getByRole("menuitem", { name: "Share…" })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/share-menu-desktop.png` });
  await page.getByRole("menuitem", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this chat" });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/share-dialog-desktop.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SCREENS}/share-dialog-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const linkField = page.getByTestId("share-link");
  await expect(linkField).toHaveValue(/\/share\/[0-9a-f-]{36}#[A-Za-z0-9_-]{43}$/);
  await page.screenshot({ path: `${SCREENS}/share-link-desktop.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SCREENS}/share-link-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  const link = await linkField.inputValue();
  const [pathPart, key] = link.split("#");
  const id = pathPart!.split("/share/")[1]!;

  // What went to the server and what it gives back: ciphertext only, never the text or the key.
  expect(posted).toHaveLength(1);
  expect(posted[0]).not.toContain("zebra");
  expect(posted[0]).not.toContain(key);
  const stored = await page.request.get(`${LOCAL}/api/shares/${id}`);
  expect(stored.status()).toBe(200);
  const storedText = await stored.text();
  expect(Object.keys(JSON.parse(storedText)).sort()).toEqual(["ciphertext", "created_at", "id"]);
  expect(storedText).not.toContain("zebra");
  expect(Buffer.from(JSON.parse(storedText).ciphertext, "base64").toString("latin1")).not.toContain("zebra");
  await page.keyboard.press("Escape");

  // A fresh browser (no cookie, no vault) opens the link and reads the chat, read-only.
  for (const viewport of [{ name: "desktop", width: 1280, height: 800 }, { name: "phone", ...PHONE }]) {
    const visitor = await browser.newContext({ viewport });
    const other = await visitor.newPage();
    const elsewhere: string[] = [];
    other.on("request", (r) => {
      if (!r.url().startsWith(new URL(LOCAL).origin) && !r.url().startsWith("data:")) elsewhere.push(r.url());
    });
    const response = await other.goto(link);
    expect(response?.headers()["x-robots-tag"]).toContain("noindex");
    await expect(other.getByTestId("shared-chat")).toBeVisible();
    await expect(other.getByRole("heading", { level: 1 })).toContainText("Plan the zebra");
    await expect(other.locator('[data-role="user"]')).toContainText(`Plan the ${SECRET}`);
    await expect(other.locator('[data-role="assistant"]')).toContainText("You asked:");
    await expect(other.getByPlaceholder("Message GPT")).toHaveCount(0);
    expect(await other.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    await expectNoAxeViolations(other, `/share (${viewport.name})`);
    await other.emulateMedia({ colorScheme: "dark" });
    await expect(other.locator("html")).toHaveClass(/\bdark\b/);
    await expectNoAxeViolations(other, `/share (${viewport.name}, dark)`);
    await other.screenshot({ path: `${SCREENS}/share-page-${viewport.name}-dark.png`, fullPage: true });
    await other.emulateMedia({ colorScheme: "light" });
    await other.screenshot({ path: `${SCREENS}/share-page-${viewport.name}.png`, fullPage: true });
    expect(elsewhere, "requests to other origins").toEqual([]);
    if (viewport.name === "desktop") {
      // A link without its key cannot be read, and says why.
      await other.goto(pathPart!);
      await expect(other.getByRole("heading", { name: "This link is incomplete" })).toBeVisible();
    }
    await visitor.close();
  }

  // Settings lists the share; revoking asks first.
  await page.goto(`${LOCAL}/settings`);
  const section = page.getByTestId("share-links");
  await expect(section.getByRole("listitem")).toHaveCount(1);
  await section.screenshot({ path: `${SCREENS}/share-settings-desktop.png` });
  await page.setViewportSize(PHONE);
  await section.screenshot({ path: `${SCREENS}/share-settings-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await section.getByRole("button", { name: /^Revoke the share link/ }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this share link?" });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/share-revoke-confirm-desktop.png` });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(section.getByRole("listitem")).toHaveCount(1);
  await section.getByRole("button", { name: /^Revoke the share link/ }).click();
  await confirm.getByRole("button", { name: "Revoke link" }).click();
  await expect(section.getByText("You have not shared any chat.")).toBeVisible();
  expect((await page.request.get(`${LOCAL}/api/shares/${id}`)).status()).toBe(404);

  const late = await browser.newContext();
  const lateVisitor = await late.newPage();
  await lateVisitor.goto(link);
  await expect(lateVisitor.getByRole("heading", { name: "Shared chat not found" })).toBeVisible();
  await expect(lateVisitor.getByText("It may have been revoked")).toBeVisible();
  await expectNoAxeViolations(lateVisitor, "/share revoked");
  await lateVisitor.screenshot({ path: `${SCREENS}/share-revoked-desktop.png` });
  await lateVisitor.setViewportSize(PHONE);
  await lateVisitor.screenshot({ path: `${SCREENS}/share-revoked-phone.png` });
  await late.close();
});

test("Hush is installable: the manifest and its icons load, the service worker registers and never caches /api", async ({ page }) => {
  const manifest = await page.request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const json = (await manifest.json()) as { name: string; display: string; start_url: string; icons: { src: string; sizes: string }[] };
  expect(json).toMatchObject({ name: "Hush", display: "standalone", start_url: "/chat" });
  for (const size of [192, 512]) {
    const icon = json.icons.find((i) => i.sizes === `${size}x${size}`)!;
    const png = await page.request.get(icon.src);
    expect(png.status()).toBe(200);
    expect(png.headers()["content-type"]).toBe("image/png");
    const bytes = await png.body();
    // PNG IHDR: width and height at bytes 16 and 20.
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([size, size]);
  }

  await page.goto("/chat");
  expect(await page.locator('link[rel="manifest"]').getAttribute("href")).toBe("/manifest.webmanifest");
  const scriptUrl = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
  expect(scriptUrl).toMatch(/\/sw\.js$/);
  const sw = await page.request.get("/sw.js");
  expect(sw.headers()["cache-control"]).toBe("no-cache");
  expect(await sw.text()).toMatch(/const CACHE = "hush-shell-[^"]+";/);

  // With the worker in control: load the page again and call the API, then look at every cache.
  await page.reload();
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await send(page, "Is this answer cached?");
  const cached = await page.evaluate(async () => {
    const out: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) out.push(new URL(request.url).pathname);
    return out;
  });
  expect(cached.some((p) => p.startsWith("/_next/static/"))).toBe(true);
  expect(cached).toContain("/icons/icon-512.png");
  expect(cached.filter((p) => p.startsWith("/api/")), "no /api response is cached").toEqual([]);
  expect(cached.filter((p) => !p.startsWith("/_next/static/") && !p.startsWith("/icons/") && p !== "/manifest.webmanifest"), "only the static shell").toEqual([]);
});
