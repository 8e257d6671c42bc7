import fs from "node:fs";
import { expect, test, type Browser } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT } from "../playwright.config";
import { DEVICE_SENTENCE, dictateOnDevice, installSpeechStandIn, launch, makeWav, STAND_IN_WORDS, type SpeechLog } from "./helpers/voice";

/**
 * On-device dictation end to end (docs/issues.md #52): headless Chromium has no speech model, so a stand-in
 * SpeechRecognition (e2e/helpers/voice.ts) shows the choice, the words in the composer, nothing sent to Hush, and
 * recognitions started with processLocally only; a browser without the on-device surface is offered nothing.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-voice";

test.describe("on this device (a stand-in for the browser's on-device recognition)", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    makeWav();
    browser = await launch(true);
  });
  test.afterAll(() => browser.close());

  for (const viewport of [
    { name: "desktop", width: 1280, height: 800 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    test(`${viewport.name}: offered beside the model, downloaded on the click, chosen and remembered; the words land in the composer and nothing reaches Hush`, async () => {
      test.setTimeout(90_000);
      const context = await browser.newContext({ viewport, permissions: ["microphone"] });
      await context.addInitScript(installSpeechStandIn, { status: "downloadable" });
      const page = await context.newPage();
      const toHush: string[] = [];
      page.on("request", (r) => void (/\/api\/(confidential\/)?audio\/transcriptions/.test(r.url()) && toHush.push(r.url())));
      await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
      const dictateButton = page.getByRole("button", { name: "Dictate", exact: true });
      await expect(dictateButton).toHaveAttribute("title", /goes through Hush's server to Groq/);

      // The default stays the model's route; the device is offered, its model downloaded first.
      await page.getByRole("button", { name: "Voice: Groq" }).click();
      const choice = page.getByTestId("dictation-choice");
      await expect(choice.getByRole("radio", { name: "Groq, through Hush's server" })).toBeChecked();
      const device = choice.getByRole("radio", { name: /^On this device/ });
      await expect(device).not.toBeChecked();
      await expect(choice).toContainText("Your browser downloads its speech model first.");
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/on-device-offered-${viewport.name}.png` });
      await device.check();
      await expect(device).toBeChecked();
      const label = page.getByRole("button", { name: "Voice: on this device" });
      await expect(label).toBeVisible();
      await expect(page.getByTestId("dictation-privacy-note")).toHaveText(DEVICE_SENTENCE);
      await page.screenshot({ path: `${SHOTS}/on-device-chosen-${viewport.name}.png` });
      await page.keyboard.press("Escape");
      await expect(dictateButton).toHaveAttribute("title", DEVICE_SENTENCE);

      // Dictate: the stand-in's words after the typed text, as a recorded transcript lands.
      const input = page.getByPlaceholder("Message GPT");
      await input.fill("Typed first.");
      await dictateOnDevice(page);
      await expect(input).toHaveValue(`Typed first. ${STAND_IN_WORDS}`);
      await expect(page.locator('[data-role="assistant"]')).toHaveCount(0);

      // Remembered in this browser; Escape cancels a recognition and keeps the text.
      await page.reload();
      await expect(page.getByRole("button", { name: "Voice: on this device" })).toBeVisible();
      await input.fill("Keep me");
      await dictateButton.click();
      await expect(page.getByTestId("dictate-timer")).toContainText("0:01", { timeout: 6_000 });
      await page.keyboard.press("Escape");
      await expect(dictateButton).toBeVisible();
      await expect(input).toHaveValue("Keep me");

      // The stand-in was asked about the device only, installed on the click, and started locally only.
      const log = (await page.evaluate(() => (window as unknown as { __speech: SpeechLog }).__speech)) as SpeechLog;
      expect(log.available.length).toBeGreaterThan(0);
      expect(log.available.every((o) => o.processLocally === true)).toBe(true);
      expect(log.started).toEqual([{ processLocally: true, continuous: true, lang: expect.any(String) }]);
      expect(log.aborted).toBe(1);
      const before = (await context.storageState()).origins.flatMap((o) => o.localStorage);
      expect(before).toContainEqual({ name: "hush:dictation-where", value: "device" });
      expect(toHush).toEqual([]);
      await context.close();
    });
  }

  test("a confidential model too: the words recognised on the device, nothing to the enclave's route", async () => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ permissions: ["microphone"], serviceWorkers: "block" });
    await context.addInitScript(installSpeechStandIn, { status: "available" });
    await context.addInitScript(() => localStorage.setItem("hush:dictation-where", "device"));
    const page = await context.newPage();
    const toHush: string[] = [];
    page.on("request", (r) => void (/\/api\/(confidential\/)?audio\/transcriptions/.test(r.url()) && toHush.push(r.url())));
    await page.goto(`http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}/chat`);
    await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
    await expect(page.getByRole("button", { name: "Voice: on this device" })).toBeVisible();
    await dictateOnDevice(page);
    await expect(page.getByPlaceholder("Message GPT")).toHaveValue(STAND_IN_WORDS);
    const log = (await page.evaluate(() => (window as unknown as { __speech: SpeechLog }).__speech)) as SpeechLog;
    expect(log.started.map((s) => s.processLocally)).toEqual([true]);
    expect(toHush).toEqual([]);
    await context.close();
  });

  test("plain headless Chromium, and a browser without the on-device surface: no recognition is started, and the older one is offered nothing", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    // What this Chromium itself answers for on-device recognition (no speech model is installed in the test browser).
    const status = await page.evaluate(async () => {
      const api = (window as unknown as { SpeechRecognition?: { available?: (o: object) => Promise<string> } }).SpeechRecognition;
      return typeof api?.available === "function" ? await api.available({ langs: [navigator.language || "en-US"], processLocally: true }) : "no available()";
    });
    test.info().annotations.push({ type: "this Chromium's on-device status", description: status });
    await page.getByRole("button", { name: "Voice: Groq" }).click();
    await expect(page.getByTestId("dictation-privacy-note")).toHaveText(/goes through Hush's server to Groq/);
    const choice = page.getByTestId("dictation-choice");
    if (status === "downloadable" || status === "downloading") {
      // Offered as a download only: never chosen by itself, the model's route stays.
      await expect(choice.getByRole("radio", { name: /^On this device/ })).not.toBeChecked();
      await expect(choice).toContainText("Your browser downloads its speech model first.");
    } else if (status === "available") {
      await expect(choice.getByRole("radio", { name: /^On this device/ })).not.toBeChecked();
    } else {
      await expect(choice).toHaveCount(0);
    }
    await page.close();

    // An older Web Speech API (no available(), no processLocally: its recognition would go to the vendor's servers).
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      for (const name of ["SpeechRecognition", "webkitSpeechRecognition"]) {
        const api = (window as unknown as Record<string, { available?: unknown; install?: unknown; prototype: object } | undefined>)[name];
        if (!api) continue;
        delete api.available;
        delete api.install;
        delete (api.prototype as { processLocally?: unknown }).processLocally;
      }
    });
    await context.addInitScript(() => localStorage.setItem("hush:dictation-where", "device"));
    const older = await context.newPage();
    await older.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    expect(await older.evaluate(() => "available" in ((window as unknown as { webkitSpeechRecognition: object }).webkitSpeechRecognition ?? {}))).toBe(false);
    const label = older.getByRole("button", { name: "Voice: Groq" });
    await label.click();
    await expect(older.getByTestId("dictation-privacy-note")).toBeVisible();
    await expect(older.getByTestId("dictation-choice")).toHaveCount(0);
    // Even with the device remembered from another browser: the model's route, never the browser's own recognition.
    await expect(older.getByRole("button", { name: "Dictate", exact: true })).toHaveAttribute("title", /goes through Hush's server to Groq/);
    await context.close();
  });
});
