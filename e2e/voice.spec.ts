import fs from "node:fs";
import { expect, test, type Browser } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT, E2E_QUOTA_APP_PORT, E2E_STT_QUOTA_SECONDS } from "../playwright.config";
import {
  DEVICE_SENTENCE,
  dictate,
  dictateOnDevice,
  installSpeechStandIn,
  launch,
  makeWav,
  QUOTA_MODEL,
  STAND_IN_WORDS,
  STT_QUOTA_SENTENCE,
  toneWav,
} from "./helpers/voice";

/**
 * Dictation end to end (docs/issues.md #52) against the production build, in Chromium with a fake microphone fed a
 * WAV (`--use-fake-device-for-media-stream --use-file-for-fake-audio-capture`): spoken by espeak-ng when it is
 * installed, else a generated warbling tone. Standard model: "Dictate", stop, and the transcript of the fake LLM
 * server's Groq transcription API lands after the typed text; the fake received audio in proportion to the
 * recording's length. Confidential model: the same flow through the development enclave, whose stand-in transcript
 * never crosses Hush in clear. Escape cancels; a denied microphone gives its sentence and loses no text. Each group
 * launches its own browser, with the fake-device flags; the microphone is granted per page (Playwright's contexts
 * refuse permissions they were not granted, whatever --use-fake-ui-for-media-stream says). Over quota: refused, then
 * disabled from the page's load after a reload. On-device recognition: e2e/voice-on-device.spec.ts.
 */
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-voice";

test.describe("standard model", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    test.info().annotations.push({ type: "fake microphone", description: makeWav() });
    browser = await launch(true);
  });
  test.afterAll(() => browser.close());

  test("Dictate, stop: the fake's transcript follows the typed text, and it heard audio in proportion to the recording", async () => {
    test.setTimeout(90_000);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, permissions: ["microphone"] });
    await page.request.delete(`${LLM}/__transcriptions`);
    await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    const input = page.getByPlaceholder("Message GPT");
    await input.fill("Typed first.");
    const dictateButton = page.getByRole("button", { name: "Dictate", exact: true });
    await expect(dictateButton).toHaveAttribute("title", /goes through Hush's server to Groq for transcription, and is not kept/);
    // Keyboard operable: focused and started with Enter.
    await dictateButton.focus();
    const pressed = Date.now();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Stop dictation" })).toBeVisible();
    await expect(page.getByTestId("dictate-timer")).toContainText("0:02", { timeout: 8_000 });
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/recording-desktop.png` });
    const counted = page.waitForResponse((r) => r.url().includes("/api/audio/transcriptions"));
    await page.getByRole("button", { name: "Stop dictation" }).click();
    const clicked = Date.now();
    const first = (await (await counted).json()) as { text: string; seconds: number };
    // The seconds counted are the recording's, as long as the test held the button (a loaded machine stretches it).
    expect(first.seconds).toBeGreaterThanOrEqual(2);
    expect(first.seconds).toBeLessThanOrEqual(Math.ceil((clicked - pressed) / 1000) + 1);
    await expect(input).toHaveValue(`Typed first. ${first.text}`);
    expect(first.text).toMatch(/^Dictated words from the fake microphone \(\d+ bytes heard\)\.$/);
    // Never sent on its own: no chat request, the composer still holds it.
    await expect(page.locator('[data-role="assistant"]')).toHaveCount(0);

    // A recording about three times as long: about three times the audio.
    const second = page.waitForResponse((r) => r.url().includes("/api/audio/transcriptions"));
    await dictate(page, 6);
    const longer = (await (await second).json()) as { text: string; seconds: number };
    await expect(input).toHaveValue(`Typed first. ${first.text} ${longer.text}`);
    const heard = (await (await page.request.get(`${LLM}/__transcriptions`)).json()) as { bytes: number; path: string; type: string; model: string }[];
    expect(heard.map((h) => [h.path, h.type, h.model])).toEqual([
      ["/openai/v1/audio/transcriptions", "audio/webm", "whisper-large-v3-turbo"],
      ["/openai/v1/audio/transcriptions", "audio/webm", "whisper-large-v3-turbo"],
    ]);
    expect(first.text).toContain(`(${heard[0]!.bytes} bytes heard)`);
    const ratio = heard[1]!.bytes / heard[0]!.bytes;
    const expected = longer.seconds / first.seconds;
    expect(ratio).toBeGreaterThan(expected * 0.6);
    expect(ratio).toBeLessThan(expected * 1.6);
    await page.close();
  });

  test("Escape cancels a recording: nothing is sent and the typed text stays", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, permissions: ["microphone"] });
    await page.request.delete(`${LLM}/__transcriptions`);
    await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    const input = page.getByPlaceholder("Message GPT");
    await input.fill("Keep me");
    await page.getByRole("button", { name: "Dictate", exact: true }).click();
    await expect(page.getByTestId("dictate-timer")).toContainText("0:01", { timeout: 6_000 });
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/recording-phone.png` });
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "Dictate", exact: true })).toBeVisible();
    await expect(input).toHaveValue("Keep me");
    expect(await (await page.request.get(`${LLM}/__transcriptions`)).json()).toEqual([]);
    await page.close();
  });
});

test.describe("voice mode", () => {
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
    test(`${viewport.name}: off by default; on, the spoken message is sent and answered, and Escape leaves it`, async () => {
      test.setTimeout(90_000);
      const page = await browser.newPage({ viewport, permissions: ["microphone"] });
      await page.request.delete(`${LLM}/__transcriptions`);
      await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
      const toggle = page.getByRole("button", { name: "Voice mode", exact: true });
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      await expect(page.getByTestId("voice-mode-status")).toHaveCount(0);
      // Beside the model picker: where this model's recordings go, its full sentence a click away.
      const label = page.getByRole("button", { name: "Voice: Groq" });
      await expect(label).toBeVisible();
      await label.click();
      await expect(page.getByTestId("dictation-privacy-note")).toHaveText("Dictate: your recording goes through Hush's server to Groq for transcription, and is not kept.");
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/dictation-label-${viewport.name}.png` });
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("dictation-privacy-note")).toHaveCount(0);
      await page.screenshot({ path: `${SHOTS}/voice-mode-off-${viewport.name}.png` });

      // Keyboard operable: focused and turned on with Enter; it starts listening by itself.
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect(toggle).toHaveAttribute("aria-pressed", "true");
      await expect(page.getByTestId("voice-mode-status")).toContainText("Voice mode: listening");
      const stop = page.getByRole("button", { name: "Stop and send" });
      await expect(stop).toBeVisible();
      await expect(page.getByTestId("dictate-timer")).toContainText("0:02", { timeout: 10_000 });
      await page.screenshot({ path: `${SHOTS}/voice-mode-on-${viewport.name}.png` });
      const transcribed = page.waitForResponse((r) => r.url().includes("/api/audio/transcriptions"));
      await stop.click();
      const { text } = (await (await transcribed).json()) as { text: string };
      expect(text).toMatch(/^Dictated words from the fake microphone/);

      // Sent as a typed message is (the composer's send path), answered, and the composer is empty again.
      await expect(page.locator('[data-role="user"]').last()).toContainText(text);
      const answer = page.locator('[data-role="assistant"]').last();
      await expect(answer).toContainText(`You asked: ${text}`);
      await expect(page.getByPlaceholder("Message GPT")).toHaveValue("");
      // Read aloud with an on-device voice, or, with none installed here, said so and listening again.
      await expect(page.getByTestId("voice-mode-note").or(page.getByText("Voice mode: reading the answer aloud"))).toBeVisible({ timeout: 10_000 });
      if (await page.getByTestId("voice-mode-note").isVisible()) {
        await expect(page.getByTestId("voice-mode-note")).toHaveText(/No on-device voice is installed in this browser/);
        await expect(page.getByRole("button", { name: "Stop and send" })).toBeVisible();
      }
      await page.screenshot({ path: `${SHOTS}/voice-mode-answered-${viewport.name}.png` });

      // Escape leaves: no recording, no status, the toggle off; nothing more was sent.
      await page.keyboard.press("Escape");
      await expect(toggle).toHaveAttribute("aria-pressed", "false");
      await expect(page.getByTestId("voice-mode-status")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Dictate", exact: true })).toBeVisible();
      await expect(page.locator('[data-role="user"]')).toHaveCount(1);
      expect(((await (await page.request.get(`${LLM}/__transcriptions`)).json()) as unknown[]).length).toBe(1);
      await page.close();
    });
  }
});

test.describe("read aloud", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    makeWav();
    browser = await launch(true);
  });
  test.afterAll(() => browser.close());

  test("offers only this browser's on-device voices; with none it says so instead of using a network voice", async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    const voices = await page.evaluate(
      () =>
        new Promise<{ name: string; localService: boolean }[]>((resolve) => {
          const list = () => speechSynthesis.getVoices().map((v) => ({ name: v.name, localService: v.localService }));
          if (list().length) return resolve(list());
          speechSynthesis.addEventListener("voiceschanged", () => resolve(list()), { once: true });
          setTimeout(() => resolve(list()), 2000);
        }),
    );
    test.info().annotations.push({ type: "voices offered", description: JSON.stringify(voices) });
    const input = page.getByPlaceholder("Message GPT");
    await input.fill("Read this back to me");
    await input.press("Enter");
    const answer = page.locator('[data-role="assistant"]').last();
    await expect(answer).toContainText("You asked");
    await answer.getByRole("button", { name: "Read aloud" }).click();
    if (voices.some((v) => v.localService)) {
      await expect(answer.getByRole("button", { name: "Pause reading" })).toBeVisible();
      await answer.getByRole("button", { name: "Stop reading" }).click();
    } else {
      await expect(answer.getByTestId("read-aloud-note")).toHaveText(/No on-device voice is installed in this browser, so Hush will not read aloud/);
    }
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/read-aloud-phone.png` });
    await page.close();
  });
});

test.describe("denied microphone", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    makeWav();
    browser = await launch(false);
  });
  test.afterAll(() => browser.close());

  test("a refused microphone gives its sentence, and no text is lost", async () => {
    // Playwright's contexts refuse a permission they were not granted: the user's "Block".
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${E2E_APP_PORT}/chat`);
    const input = page.getByPlaceholder("Message GPT");
    await input.fill("Still here");
    await page.getByRole("button", { name: "Dictate", exact: true }).click();
    await expect(page.getByTestId("dictate-error")).toContainText("Hush may not use the microphone");
    await expect(input).toHaveValue("Still here");
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/denied-desktop.png` });
    await context.close();
  });
});

test.describe("confidential model", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    makeWav();
    browser = await launch(true);
  });
  test.afterAll(() => browser.close());

  test("the recording is encrypted to the development enclave, whose stand-in transcript never crosses Hush in clear", async () => {
    test.setTimeout(60_000);
    // Without the service worker: once it controlled the page, the relayed response's body was at times unreadable
    // ("No data found for resource"). It never answers a POST, so the wire is the same.
    const page = await browser.newPage({ permissions: ["microphone"], serviceWorkers: "block" });
    await page.goto(`http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}/chat`);
    await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
    const dictateButton = page.getByRole("button", { name: "Dictate", exact: true });
    await expect(dictateButton).toHaveAttribute("title", /encrypted in this browser to the verified enclave/);
    await expect(page.getByRole("button", { name: "Voice: in the enclave" })).toHaveAttribute("title", /encrypted in this browser to the verified enclave/);
    // Through a route, which holds the body: a response event's body may be gone from Chromium's buffer when read.
    const relayed: { request: Buffer | null; response: Buffer }[] = [];
    await page.route("**/api/confidential/audio/transcriptions", async (route) => {
      const response = await route.fetch();
      relayed.push({ request: route.request().postDataBuffer(), response: await response.body() });
      await route.fulfill({ response });
    });
    await dictate(page, 2);
    const input = page.getByPlaceholder("Message GPT");
    await expect(input).toHaveValue(/^\(The development enclave has no speech model, so this stands in for your words: it received \d+ bytes of encrypted audio and kept none\.\)$/);
    expect(relayed).toHaveLength(1);
    const crossed = Buffer.concat([relayed[0]!.request ?? Buffer.alloc(0), relayed[0]!.response]).toString("latin1");
    expect(crossed).not.toContain("no speech model");
    expect(crossed).not.toContain("whisper");
    expect(crossed).not.toContain("webm");
    await page.close();
  });
});

test.describe("over quota (the quota instance's few dictation seconds)", () => {
  let browser: Browser;
  test.beforeAll(async () => {
    makeWav();
    browser = await launch(true);
  });
  test.afterAll(() => browser.close());

  test("once the day's seconds are used up, Dictate says so, is disabled and explains why in its tooltip; the text stays", async () => {
    test.setTimeout(60_000);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, permissions: ["microphone"] });
    await page.goto(`http://127.0.0.1:${E2E_QUOTA_APP_PORT}/chat`);
    const input = page.getByPlaceholder("Message GPT");
    const dictateButton = page.getByRole("button", { name: "Dictate", exact: true });
    await expect(dictateButton).toHaveAttribute("title", /goes through Hush's server to Groq for transcription/);
    // About 2 of the day's seconds: transcribed.
    const first = page.waitForResponse((r) => r.url().includes("/api/audio/transcriptions"));
    await dictate(page, 1);
    const counted = (await (await first).json()) as { text: string; seconds: number };
    expect(counted.seconds).toBeLessThan(E2E_STT_QUOTA_SECONDS);
    await expect(input).toHaveValue(counted.text);
    await input.fill("Typed, then dictated again");
    // At least 3 more: past the day's seconds, refused before the provider hears it.
    const second = page.waitForResponse((r) => r.url().includes("/api/audio/transcriptions"));
    await dictate(page, 2);
    expect((await second).status()).toBe(429);
    await expect(page.getByTestId("dictate-error")).toContainText("You've used today's dictation time. Type your message instead, or dictate again tomorrow.");
    await expect(dictateButton).toBeDisabled();
    await expect(dictateButton).toHaveAttribute("title", "You've used today's dictation time. Type your message instead, or dictate again tomorrow.");
    await expect(input).toHaveValue("Typed, then dictated again");
    // Voice mode needs dictation: off and disabled, for the same reason.
    const voiceMode = page.getByRole("button", { name: "Voice mode", exact: true });
    await expect(voiceMode).toBeDisabled();
    await expect(voiceMode).toHaveAttribute("title", "You've used today's dictation time. Type your message instead, or dictate again tomorrow.");
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/over-quota-phone.png` });

    // The rest of the day's seconds used (through the route itself, a WAV of exactly the seconds left: the fake
    // provider reports a WAV's length, and a longer one would be counted), then a reload: the page
    // asks the server how many are left and starts disabled, with the same tooltip, before any recording.
    const left = (await (await page.request.get(`http://127.0.0.1:${E2E_QUOTA_APP_PORT}/api/audio/seconds`)).json()) as { limit_seconds: number; remaining_seconds: number };
    expect(left).toEqual({ limit_seconds: E2E_STT_QUOTA_SECONDS, remaining_seconds: E2E_STT_QUOTA_SECONDS - counted.seconds });
    const rest = await page.request.post(`http://127.0.0.1:${E2E_QUOTA_APP_PORT}/api/audio/transcriptions?model=${encodeURIComponent(QUOTA_MODEL)}&seconds=${left.remaining_seconds}`, {
      headers: { "Content-Type": "audio/wav", Origin: `http://127.0.0.1:${E2E_QUOTA_APP_PORT}` },
      data: toneWav(left.remaining_seconds),
    });
    expect(rest.status()).toBe(200);
    const loaded = page.waitForResponse((r) => r.url().endsWith("/api/audio/seconds"));
    await page.reload();
    expect(await (await loaded).json()).toEqual({ limit_seconds: E2E_STT_QUOTA_SECONDS, remaining_seconds: 0 });
    await expect(dictateButton).toBeDisabled();
    await expect(dictateButton).toHaveAttribute("title", STT_QUOTA_SENTENCE);
    await expect(voiceMode).toBeDisabled();
    await expect(voiceMode).toHaveAttribute("title", STT_QUOTA_SENTENCE);
    await page.screenshot({ path: `${SHOTS}/over-quota-reloaded-phone.png` });

    // On this device nothing is counted: with the browser's on-device recognition chosen, Dictate works again.
    await page.addInitScript(installSpeechStandIn, { status: "available" });
    await page.addInitScript(() => localStorage.setItem("hush:dictation-where", "device"));
    const transcriptions: string[] = [];
    page.on("request", (r) => void (r.url().includes("/audio/transcriptions") && transcriptions.push(r.url())));
    await page.reload();
    await expect(dictateButton).toBeEnabled();
    await expect(dictateButton).toHaveAttribute("title", DEVICE_SENTENCE);
    await input.fill("Over the limit,");
    await dictateOnDevice(page);
    await expect(input).toHaveValue(`Over the limit, ${STAND_IN_WORDS}`);
    expect(transcriptions).toEqual([]);
    await page.close();
  });
});
