import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page, type Request } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT, E2E_QUOTA_APP_PORT } from "../playwright.config";
import { imageSize } from "../lib/shared/chat/images";
import { signInByEmail } from "./helpers/auth";
import { sidebarOf, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * Images for vision-capable models (docs/issues.md #23) end to end against the production build: on the main
 * app instance, whose Basic model is in LLM_VISION_MODELS, a photo is resized (at most 1568 px a side) and
 * re-encoded as JPEG in the browser, which drops its EXIF, and reaches the model as an OpenAI image part;
 * on the confidential instance it goes inside the encrypted body and the development enclave says what it
 * received. The quota instance keeps both models text-only (its refusal: e2e/share-files.spec.ts).
 */
const VISION_APP = `http://127.0.0.1:${E2E_APP_PORT}`;
const CONFIDENTIAL_APP = `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}`;
/** The quota instance: no LLM_VISION_MODELS. */
const TEXT_ONLY_APP = `http://127.0.0.1:${E2E_QUOTA_APP_PORT}`;
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const SHOTS = process.env.E2E_VISION_SHOTS_DIR ?? "test-results/shots-vision";
const PHONE = { width: 390, height: 844 };
const EXIF_CANARY = "EXIFCANARY-GPS-51.5007N-0.1246W";

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

/** A JPEG of `width`x`height` drawn in the page, with an EXIF block (APP1, ImageDescription = EXIF_CANARY) spliced in. */
async function photoWithExif(page: Page, width: number, height: number): Promise<Buffer> {
  const base64 = await page.evaluate(
    async ([w, h]) => {
      const canvas = new OffscreenCanvas(w!, h!);
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = "#1d4ed8";
      ctx.fillRect(0, 0, w!, h!);
      ctx.fillStyle = "#f59e0b";
      ctx.fillRect(w! / 4, h! / 4, w! / 2, h! / 2);
      const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.9 });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = "";
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    },
    [width, height],
  );
  const jpeg = Buffer.from(base64, "base64");
  const text = Buffer.from(`${EXIF_CANARY}\0`, "latin1");
  const tiff = Buffer.alloc(26);
  tiff.write("MM\0*", 0, "latin1");
  tiff.writeUInt32BE(8, 4); // first IFD
  tiff.writeUInt16BE(1, 8); // one entry
  tiff.writeUInt16BE(0x010e, 10); // ImageDescription
  tiff.writeUInt16BE(2, 12); // ASCII
  tiff.writeUInt32BE(text.length, 14);
  tiff.writeUInt32BE(26, 18); // value offset
  tiff.writeUInt32BE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), tiff, text]);
  const app1 = Buffer.alloc(4);
  app1.writeUInt16BE(0xffe1, 0);
  app1.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), app1, payload, jpeg.subarray(2)]);
}

interface Received {
  messages: { role: string; content: string; images?: string[] }[];
}

function recordBodies(page: Page, origin: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin === origin) seen.push(r);
  });
  return seen;
}

async function openChat(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  return { context, page: await context.newPage() };
}

test("an image for a vision model: resized and stripped in the browser, a thumbnail chip, and an image part for the model", async ({ browser }) => {
  const { context, page } = await openChat(browser, VISION_APP);
  await page.request.delete(`${LLM}/__requests`);
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
  const fileInput = page.getByTestId("file-input");
  expect((await fileInput.getAttribute("accept"))!.split(",")).toEqual(expect.arrayContaining([".png", ".jpg", ".webp", ".gif", "image/jpeg"]));

  const photo = await photoWithExif(page, 3000, 2000);
  expect(photo.includes(EXIF_CANARY)).toBe(true);
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("What is in this photo?");
  await fileInput.setInputFiles({ name: "holiday.jpg", mimeType: "image/jpeg", buffer: photo });
  const staged = page.getByTestId("staged-file");
  await expect(staged.getByRole("img", { name: "Attached image holiday.jpg" })).toBeVisible();

  // The remove button is labelled and works from the keyboard.
  const remove = staged.getByRole("button", { name: "Remove holiday.jpg" });
  await remove.focus();
  await page.keyboard.press("Enter");
  await expect(staged).toHaveCount(0);
  await fileInput.setInputFiles({ name: "holiday.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(staged.getByTestId("image-thumbnail")).toBeVisible();
  // The staged chip (thumbnail with its alt text, labelled remove button) passes axe.
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }))).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/composer-image-desktop.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/composer-image-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });

  const bodies = recordBodies(page, VISION_APP);
  await input.press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("You asked: What is in this photo? Images: 1.");
  const user = page.locator('[data-role="user"]').last();
  await expect(user.getByTestId("image-thumbnail")).toBeVisible();

  // What the model received: the text, then one JPEG data URL of the resized photo, without the EXIF block.
  const requests = (await (await page.request.get(`${LLM}/__requests`)).json()) as Received[];
  const last = requests.at(-1)!.messages.at(-1)!;
  expect(last.content).toBe("What is in this photo?");
  expect(last.images).toHaveLength(1);
  const url = last.images![0]!;
  expect(url.startsWith("data:image/jpeg;base64,")).toBe(true);
  const sent = Buffer.from(url.slice("data:image/jpeg;base64,".length), "base64");
  expect(imageSize(sent)).toEqual({ width: 1568, height: 1045 });
  expect(sent.includes(EXIF_CANARY)).toBe(false);
  expect(sent.includes(Buffer.from("Exif\0\0", "latin1"))).toBe(false);
  expect(sent.length).toBeLessThan(photo.length);
  // The chat request itself carried the image as an OpenAI content part (a standard model: Hush's server relays it).
  const chatBody = bodies.find((r) => r.url().endsWith("/api/ns/chat"))!.postDataJSON() as { messages: { content: unknown }[] };
  expect(chatBody.messages.at(-1)!.content).toEqual([
    { type: "text", text: "What is in this photo?" },
    { type: "image_url", image_url: { url } },
  ]);

  await page.screenshot({ path: `${SHOTS}/answered-image-desktop.png` });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/answered-image-phone.png` });

  // A follow-up question keeps the image (it travels with its message).
  await page.setViewportSize({ width: 1280, height: 800 });
  await input.fill("And what colour is the square?");
  await input.press("Enter");
  await expect(answer).toContainText("You asked: And what colour is the square?");
  const followUp = ((await (await page.request.get(`${LLM}/__requests`)).json()) as Received[]).at(-1)!;
  expect(followUp.messages.filter((m) => m.images?.length).map((m) => m.content)).toEqual(["What is in this photo?"]);
  await context.close();
});

test("an image in a saved chat is sealed with the vault key: the server never sees it, and the reopened chat shows it", async ({ browser }) => {
  const { context, page } = await openChat(browser, VISION_APP);
  const passphrase = "kite meadow silver anchor vision";
  await signInByEmail(page, `vision-${Date.now()}@example.test`);
  await turnOnHistoryWithPassphrase(page, passphrase);
  const bodies = recordBodies(page, VISION_APP);
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Keep this picture of the square");
  await page.getByTestId("file-input").setInputFiles({ name: "square.jpg", mimeType: "image/jpeg", buffer: await photoWithExif(page, 800, 600) });
  await expect(page.getByTestId("staged-file").getByTestId("image-thumbnail")).toBeVisible();
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/ns/chat_save") && r.request().method() === "POST");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("Images: 1.");
  expect((await saved).ok()).toBe(true);
  const entry = sidebarOf(page).getByRole("button", { name: /^Keep this picture/ });
  await expect(entry).toBeVisible();
  // The turn's request (the chat's generated title is asked for after it).
  const turns = ((await (await page.request.get(`${LLM}/__requests`)).json()) as Received[]).filter((r) => r.messages.at(-1)?.images?.length);
  const url = turns.at(-1)!.messages.at(-1)!.images![0]!;
  const base64 = url.slice(url.indexOf(",") + 1);
  // The save carried ciphertext only: neither the data URL nor its base64 is in any save body.
  const saves = bodies.filter((r) => r.url().endsWith("/api/ns/chat_save"));
  expect(saves.length).toBeGreaterThan(0);
  for (const r of saves) {
    const body = r.postData() ?? "";
    expect(body.includes("data:image")).toBe(false);
    expect(body.includes(base64.slice(100, 200))).toBe(false);
  }

  // After a reload (the vault locks), the chat opens with its image.
  await page.goto("/chat");
  await unlockWithPassphrase(sidebarOf(page), passphrase);
  await entry.click();
  const user = page.locator('[data-role="user"]').first();
  await expect(user).toContainText("Keep this picture of the square");
  await expect(user.getByTestId("image-thumbnail")).toBeVisible();
  expect(await user.getByTestId("image-thumbnail").getAttribute("src")).toBe(url);
  await page.screenshot({ path: `${SHOTS}/reopened-image-desktop.png` });

  // A follow-up in the reopened chat sends the image again.
  await input.fill("What colour was it?");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: What colour was it?");
  const followUp = ((await (await page.request.get(`${LLM}/__requests`)).json()) as Received[]).findLast((r) => r.messages.at(-1)?.content === "What colour was it?")!;
  expect(followUp.messages.find((m) => m.images?.length)?.images).toEqual([url]);
  await context.close();
});

test("an instance whose models read text only: the picker offers no images", async ({ browser }) => {
  const { context, page } = await openChat(browser, TEXT_ONLY_APP);
  await page.goto("/chat");
  const accept = (await page.getByTestId("file-input").getAttribute("accept"))!.split(",");
  expect(accept).toContain(".pdf");
  expect(accept).not.toContain(".png");
  expect(accept).not.toContain(".jpg");
  await context.close();
});

test("a confidential vision model: the image goes inside the encrypted body and the development enclave acknowledges it", async ({ browser }) => {
  const { context, page } = await openChat(browser, CONFIDENTIAL_APP);
  const requests = recordBodies(page, CONFIDENTIAL_APP);
  await page.goto("/chat");
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  const photo = await photoWithExif(page, 640, 480);
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Describe the picture");
  await page.getByTestId("file-input").setInputFiles({ name: "square.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(page.getByTestId("staged-file").getByTestId("image-thumbnail")).toBeVisible();
  await input.press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("I received 1 image (640x480).");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  const chat = requests.filter((r) => r.url().endsWith("/api/confidential/chat"));
  expect(chat.length).toBeGreaterThan(0);
  for (const request of requests) {
    const body = request.postDataBuffer();
    if (!body) continue;
    expect(body.includes("image_url"), `body of ${request.url()}`).toBe(false);
    expect(body.includes("data:image"), `body of ${request.url()}`).toBe(false);
    expect(body.includes("/9j/"), `body of ${request.url()}`).toBe(false);
  }
  expect(requests.some((r) => r.url().includes("/api/ns/chat"))).toBe(false);
  await page.screenshot({ path: `${SHOTS}/confidential-image-desktop.png` });
  await context.close();
});
