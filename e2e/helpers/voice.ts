import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium, expect, type Browser, type Page } from "@playwright/test";

/**
 * e2e/voice.spec.ts's fake microphone, browser, recording steps and a stand-in for the browser's on-device speech
 * recognition (docs/issues.md #52).
 */
const BASE_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const WAV = path.resolve("test-results", "voice-fake-microphone.wav");

/** A 16 kHz mono PCM WAV of `seconds`: a tone that rises and falls, loud enough for the level meter. */
export function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = rate * seconds;
  const out = Buffer.alloc(44 + samples * 2);
  out.write("RIFF", 0);
  out.writeUInt32LE(36 + samples * 2, 4);
  out.write("WAVEfmt ", 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36);
  out.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const frequency = 220 + 180 * Math.sin(2 * Math.PI * 0.5 * t);
    out.writeInt16LE(Math.round(12_000 * Math.sin(2 * Math.PI * frequency * t) * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t))), 44 + i * 2);
  }
  return out;
}

/** The fake microphone's recording: espeak-ng's voice where installed, else the tone. */
export function makeWav(): string {
  fs.mkdirSync(path.dirname(WAV), { recursive: true });
  try {
    execFileSync("espeak-ng", ["-w", WAV, "Hello Hush. This message was dictated into a fake microphone."], { stdio: "ignore" });
    return "espeak-ng";
  } catch {
    fs.writeFileSync(WAV, toneWav(8));
    return "tone";
  }
}

export async function launch(allowMicrophone: boolean): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [...BASE_ARGS, "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${WAV}`, ...(allowMicrophone ? ["--use-fake-ui-for-media-stream"] : [])],
  });
}

/** Record for at least `seconds` (by the button's own timer), then stop. */
export async function dictate(page: Page, seconds: number): Promise<void> {
  await page.getByRole("button", { name: "Dictate", exact: true }).click();
  const stop = page.getByRole("button", { name: "Stop dictation" });
  await expect(stop).toBeVisible();
  await expect(page.getByTestId("dictate-timer")).toContainText(`0:${String(seconds).padStart(2, "0")}`, { timeout: (seconds + 5) * 1000 });
  await stop.click();
}

export const STT_QUOTA_SENTENCE = "You've used today's dictation time. Type your message instead, or dictate again tomorrow.";
export const DEVICE_SENTENCE =
  "Dictate: your voice is recognised by this browser on this device; neither the audio nor the words are sent to Hush or anyone else, and no dictation time is counted.";
/** The quota instance's default model (the composer's). */
export const QUOTA_MODEL = "llama3-8b-8192";
/** What the stand-in recognition "hears". */
export const STAND_IN_WORDS = "Spoken on this device.";

/** What the stand-in SpeechRecognition recorded (window.__speech). */
export interface SpeechLog {
  available: { langs: string[]; processLocally?: boolean }[];
  installed: { langs: string[]; processLocally?: boolean }[];
  constructed: number;
  started: { processLocally: boolean; continuous: boolean; lang: string }[];
  aborted: number;
}

/**
 * An init script: a stand-in for the browser's on-device SpeechRecognition (headless Chromium has no speech model),
 * speaking the W3C Web Speech API's surface: static available()/install(), processLocally, start/stop/abort, and
 * result/end events. It answers `status` for the device until install() is called (then "available", for the rest of
 * the tab's session), hears STAND_IN_WORDS, and records how it was asked and started in window.__speech.
 */
export function installSpeechStandIn({ status }: { status: string }): void {
  const words = "Spoken on this device.";
  const log = { available: [] as unknown[], installed: [] as unknown[], constructed: 0, started: [] as unknown[], aborted: 0 };
  (window as unknown as { __speech: typeof log }).__speech = log;
  const installed = () => sessionStorage.getItem("speech-stand-in") === "installed";
  type Handler = ((event: unknown) => void) | null;
  class StandInRecognition {
    lang = "";
    continuous = false;
    interimResults = false;
    onresult: Handler = null;
    onerror: Handler = null;
    onend: Handler = null;
    #local = false;
    #timer: ReturnType<typeof setInterval> | undefined;
    constructor() {
      log.constructed += 1;
    }
    get processLocally(): boolean {
      return this.#local;
    }
    set processLocally(value: boolean) {
      this.#local = value === true;
    }
    static async available(options: { langs: string[]; processLocally?: boolean }): Promise<string> {
      log.available.push(options);
      return options.processLocally === true && !installed() ? status : "available";
    }
    static async install(options: { langs: string[] }): Promise<boolean> {
      log.installed.push(options);
      sessionStorage.setItem("speech-stand-in", "installed");
      return true;
    }
    start(): void {
      log.started.push({ processLocally: this.#local, continuous: this.continuous, lang: this.lang });
      // Interim words while "speaking", as a browser's recognition sends them.
      this.#timer = setInterval(() => this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript: "Spoken on" }], { isFinal: false })] }), 200);
    }
    stop(): void {
      clearInterval(this.#timer);
      setTimeout(() => {
        this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript: words }], { isFinal: true })] });
        this.onend?.({});
      }, 50);
    }
    abort(): void {
      clearInterval(this.#timer);
      log.aborted += 1;
      setTimeout(() => {
        this.onerror?.({ error: "aborted" });
        this.onend?.({});
      }, 10);
    }
  }
  Object.assign(window, { SpeechRecognition: StandInRecognition, webkitSpeechRecognition: StandInRecognition });
}

/** Dictate on the device: click, wait for the timer's first second, stop. */
export async function dictateOnDevice(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Dictate", exact: true }).click();
  await expect(page.getByTestId("dictate-timer")).toContainText("0:01", { timeout: 6_000 });
  await page.getByRole("button", { name: "Stop dictation" }).click();
}
