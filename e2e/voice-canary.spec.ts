import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, expect, test, type BrowserContext, type Page } from "@playwright/test";
import { E2E_APP_LOG, E2E_CONFIDENTIAL_APP_PORT, E2E_CONFIDENTIAL_DATA_DIR, E2E_CONFIDENTIAL_LOG, E2E_DATA_DIR, E2E_ENCLAVE_PORT } from "../playwright.config";
import { signInByEmail } from "./helpers/auth";
import { byteNeedles, filesBelow, filesChangedSince, scanFiles, slicesOf, textNeedles, type Needle } from "./helpers/disk-leaks";
import { signInOnLocalhost, sidebarOf, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * The voice canary (docs/issues.md #52, "Done when": a canary spoken into the fake microphone and transcribed is found
 * on no disk, in no log and in no database file beyond the sealed message). espeak-ng speaks a sentence holding a
 * fresh canary word into the WAV the fake microphone plays; the transcriber (the fake LLM server's Groq API on the
 * standard path, the development enclave on the confidential one) is told to "hear" that sentence. A signed-in user
 * with saved history dictates, the transcript lands in the composer, is sent, answered and saved sealed. Then the
 * canary (UTF-8, UTF-16, hex, base64) and slices of the recording (the WAV's PCM and the browser's Opus, raw and
 * base64) are searched for in every file of the instance's data folder (PGlite), its whole log, the files under
 * .next/cache and the OS temp folder written during the test (the test browser's profile included), and, in the
 * browser, Cache Storage, IndexedDB and Web Storage. The transcriber and the page's memory are the only places
 * allowed to hold it in clear. It reads the instances' logs and sets the transcribers' text: a shared-state spec.
 */
const LLM = `http://127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
const ENCLAVE = `http://127.0.0.1:${E2E_ENCLAVE_PORT}`;
const CONFIDENTIAL_APP = `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}`;
const WAV = path.resolve("test-results", "voice-canary-microphone.wav");
const NEXT_CACHE = path.resolve(".next", "cache");
const BASE_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** Playwright's own traces and downloads (the test's record, not the app's): they hold the page as it was. */
const HARNESS = /[/\\]playwright-artifacts-|[/\\]playwright-transform-cache|[/\\]\.playwright/;

/** A fresh canary word, letters only so espeak-ng reads it as one word. */
function canaryWord(): string {
  return `CANARY${[...randomBytes(8)].map((b) => String.fromCharCode(65 + (b % 26))).join("")}`;
}

/** The fake microphone's recording: espeak-ng saying the sentence (it must be installed: the canary is spoken). */
function speak(sentence: string): Buffer {
  fs.mkdirSync(path.dirname(WAV), { recursive: true });
  execFileSync("espeak-ng", ["-w", WAV, sentence], { stdio: "ignore" });
  return fs.readFileSync(WAV);
}

/** The PCM samples of a WAV (the "data" chunk). */
function pcmOf(wav: Buffer): Buffer {
  for (let at = 12; at + 8 <= wav.length; ) {
    const size = wav.readUInt32LE(at + 4);
    if (wav.toString("latin1", at, at + 4) === "data") return wav.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size % 2);
  }
  throw new Error("no data chunk in the WAV");
}

/** Every chunk MediaRecorder hands out, kept in the page so the test knows the recording's Opus bytes. */
function keepRecordedChunks(): void {
  const Native = window.MediaRecorder;
  const kept: Blob[] = [];
  (window as unknown as { __recorded: Blob[] }).__recorded = kept;
  window.MediaRecorder = class extends Native {
    constructor(stream: MediaStream, options?: MediaRecorderOptions) {
      super(stream, options);
      this.addEventListener("dataavailable", (event) => {
        if (event.data.size > 0) kept.push(event.data);
      });
    }
  };
}

async function recordedOpus(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(async () => {
    const blob = new Blob((window as unknown as { __recorded: Blob[] }).__recorded);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  return Buffer.from(b64, "base64");
}

/**
 * What the page keeps on this device, searched in the page: every Cache Storage response, every IndexedDB record
 * (strings as they are, binary values as bytes), localStorage and sessionStorage. Needles are Latin-1 strings (one
 * character a byte), plus `text` itself for JavaScript strings. Returns the hits and how much was searched.
 */
async function browserStorageHits(page: Page, needles: Needle[], text: string) {
  return page.evaluate(
    async ({ needles, text }) => {
      const hits: string[] = [];
      const counted = { cachedResponses: 0, idbRecords: 0, idbStores: 0, webStorageKeys: 0 };
      const latin1 = (bytes: Uint8Array) => {
        let out = "";
        for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return out;
      };
      const check = (where: string, value: string) => {
        if (value.includes(text)) hits.push(`${where}: the text`);
        for (const n of needles) if (value.includes(n.bytes)) hits.push(`${where}: ${n.name}`);
      };
      const walk = async (where: string, value: unknown, depth = 0): Promise<void> => {
        if (depth > 12 || value === null || value === undefined) return;
        if (typeof value === "string") return check(where, value);
        if (value instanceof ArrayBuffer) return check(where, latin1(new Uint8Array(value)));
        if (ArrayBuffer.isView(value)) return check(where, latin1(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)));
        if (value instanceof Blob) return check(where, latin1(new Uint8Array(await value.arrayBuffer())));
        if (typeof CryptoKey !== "undefined" && value instanceof CryptoKey) return;
        if (value instanceof Map) {
          for (const [k, v] of value) {
            await walk(where, k, depth + 1);
            await walk(where, v, depth + 1);
          }
          return;
        }
        if (typeof value === "object") for (const [k, v] of Object.entries(value)) await walk(`${where}.${k}`, v, depth + 1);
      };
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          counted.cachedResponses++;
          check(`cache ${name} ${request.url} (URL)`, request.url);
          if (response) check(`cache ${name} ${request.url}`, latin1(new Uint8Array(await response.arrayBuffer())));
        }
      }
      for (const info of await indexedDB.databases()) {
        if (!info.name) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(info.name!);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        for (const store of Array.from(db.objectStoreNames)) {
          counted.idbStores++;
          const [keys, values] = await new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
            const tx = db.transaction(store, "readonly");
            const keysRequest = tx.objectStore(store).getAllKeys();
            const valuesRequest = tx.objectStore(store).getAll();
            tx.oncomplete = () => resolve([keysRequest.result, valuesRequest.result]);
            tx.onerror = () => reject(tx.error);
          });
          counted.idbRecords += values.length;
          for (let i = 0; i < values.length; i++) {
            await walk(`indexedDB ${info.name}/${store} key`, keys[i]);
            await walk(`indexedDB ${info.name}/${store}[${String(keys[i])}]`, values[i]);
          }
        }
        db.close();
      }
      for (const [label, storage] of [["localStorage", localStorage], ["sessionStorage", sessionStorage]] as const) {
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i)!;
          counted.webStorageKeys++;
          check(`${label} key`, key);
          check(`${label}[${key}]`, storage.getItem(key) ?? "");
        }
      }
      return { hits, counted };
    },
    { needles: needles.map((n) => ({ name: n.name, bytes: n.bytes.toString("latin1") })), text },
  );
}

/**
 * Chromium with the fake microphone playing the WAV, on a profile on disk in the temp folder (a person's browser keeps
 * IndexedDB and its caches in files, which Playwright's usual off-the-record contexts do not), so the temp search
 * reads the browser's own files too.
 */
async function launch(baseURL?: string): Promise<{ context: BrowserContext; profile: string }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "voice-canary-profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [...BASE_ARGS, "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${WAV}`, "--use-fake-ui-for-media-stream"],
    permissions: ["microphone"],
    viewport: { width: 1280, height: 800 },
    baseURL,
  });
  await context.addInitScript(keepRecordedChunks);
  return { context, profile };
}

/** Record for about two seconds by the button's timer, stop, and wait for the transcript in the composer. */
async function dictateInto(page: Page, transcript: string): Promise<void> {
  await page.getByRole("button", { name: "Dictate", exact: true }).click();
  await expect(page.getByTestId("dictate-timer")).toContainText("0:02", { timeout: 10_000 });
  await page.getByRole("button", { name: "Stop dictation" }).click();
  await expect(page.getByPlaceholder("Message GPT")).toHaveValue(transcript, { timeout: 20_000 });
}

/** Send the composer's text and wait until the answer holds `canary` and the chat was saved (sealed). */
async function sendAndSave(page: Page, canary: string): Promise<void> {
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/ns/chat_save") && r.request().method() === "POST");
  await page.getByPlaceholder("Message GPT").press("Enter");
  await expect(page.locator('[data-role="user"]').last()).toContainText(canary);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(canary);
  expect((await saved).ok()).toBe(true);
  await expect(sidebarOf(page).getByRole("button", { name: new RegExp(`^Please remember the word ${canary}`) })).toBeVisible();
}

/** A listing of the OS temp folder's files (path → mtime), to tell the files the test's run wrote. */
function tempListing(): Map<string, number> {
  const listing = new Map<string, number>();
  for (const file of filesBelow(os.tmpdir(), (f) => HARNESS.test(f))) {
    try {
      listing.set(file, fs.statSync(file).mtimeMs);
    } catch {
      // gone meanwhile
    }
  }
  return listing;
}

/** The files of the temp folder that are new since `before` or changed since then. */
function tempWritten(before: Map<string, number>, since: number): string[] {
  return filesChangedSince(os.tmpdir(), since, (f) => HARNESS.test(f)).filter((file) => {
    const was = before.get(file);
    return was === undefined || fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs !== was;
  });
}

interface Leak {
  place: string;
  file: string;
  found: string[];
}

/**
 * The server-side search: the instance's data folder (every file), its log, .next/cache and the temp folder's files
 * written since `since`. Returns the leaks and how many files each place had (so an empty search cannot pass).
 */
function searchDisks(needles: Needle[], places: { dataDir: string; log: string }, before: Map<string, number>, since: number) {
  const unreadable: string[] = [];
  const dataFiles = filesBelow(places.dataDir);
  const cacheFiles = filesChangedSince(NEXT_CACHE, since);
  const tempFiles = tempWritten(before, since);
  const leaks: Leak[] = [
    ...scanFiles(dataFiles, needles, unreadable).map((hit) => ({ place: "data folder", ...hit })),
    ...scanFiles([places.log], needles, unreadable).map((hit) => ({ place: "server log", ...hit })),
    ...scanFiles(cacheFiles, needles, unreadable).map((hit) => ({ place: ".next/cache", ...hit })),
    ...scanFiles(tempFiles, needles, unreadable).map((hit) => ({ place: "temp folder", ...hit })),
  ];
  return { leaks, counts: { dataFiles: dataFiles.length, cacheFiles: cacheFiles.length, tempFiles: tempFiles.length, unreadable: unreadable.length }, tempFiles };
}

interface Run {
  canary: string;
  transcript: string;
  wav: Buffer;
}

function newRun(): Run {
  const canary = canaryWord();
  const sentence = `Please remember the word ${canary} for me.`;
  return { canary, transcript: sentence, wav: speak(sentence) };
}

/** The needles of a run: the canary's encodings, slices of the WAV's PCM and of the browser's Opus recording. */
function needlesOf(run: Run, opus: Buffer): Needle[] {
  const pcm = slicesOf(pcmOf(run.wav), 4, 48);
  const recorded = slicesOf(opus, 4, 48);
  expect(pcm).toHaveLength(4);
  expect(recorded).toHaveLength(4);
  return [
    ...textNeedles("canary", run.canary),
    ...pcm.flatMap((slice, i) => byteNeedles(`WAV PCM slice ${i}`, slice)),
    ...recorded.flatMap((slice, i) => byteNeedles(`Opus slice ${i}`, slice)),
  ];
}

async function checkEverywhere(
  page: Page,
  run: Run,
  places: { dataDir: string; log: string; profile: string },
  before: Map<string, number>,
  since: number,
  email: string,
) {
  const { profile } = places;
  const opus = await recordedOpus(page);
  expect(opus.length).toBeGreaterThan(1000);
  const needles = needlesOf(run, opus);

  // In the browser: sealed records in IndexedDB (the saved chat), nothing readable anywhere it keeps things.
  const stored = await browserStorageHits(page, needles, run.canary);
  test.info().annotations.push({ type: "browser storage searched", description: JSON.stringify(stored.counted) });
  expect(stored.counted.idbRecords).toBeGreaterThan(0);
  expect(stored.hits).toEqual([]);

  // On the server's side, and in the temp folder (the browser's profile included, before it closes).
  const { leaks, counts, tempFiles } = searchDisks(needles, places, before, since);
  test.info().annotations.push({ type: "files searched", description: JSON.stringify(counts) });
  expect(counts.dataFiles).toBeGreaterThan(0);
  expect(fs.statSync(places.log).size).toBeGreaterThan(0);
  expect(leaks).toEqual([]);
  // The search does read what the instance wrote: the account's address is in its database files.
  const control = scanFiles(filesBelow(places.dataDir), textNeedles("e-mail", email).slice(0, 1));
  expect(control.length, "the e-mail address in the data folder (the search reads the database)").toBeGreaterThan(0);
  // And the temp search read the browser profile's IndexedDB files, where the sealed chat is kept.
  expect(tempFiles.some((f) => f.startsWith(profile) && /IndexedDB/.test(f)), "the browser profile's IndexedDB among the temp files searched").toBe(true);
}

test.describe("standard model: the canary goes to the provider only", () => {
  let browser: { context: BrowserContext; profile: string } | undefined;
  let run: Run;
  test.beforeAll(async () => {
    run = newRun();
  });
  test.afterAll(async () => {
    await fetch(`${LLM}/__transcript`, { method: "DELETE" });
    await browser?.context.close();
    if (browser) fs.rmSync(browser.profile, { recursive: true, force: true });
  });

  test("dictated, sent and saved sealed: the canary and the audio are in no file, log or browser store", async () => {
    test.setTimeout(180_000);
    const since = Date.now();
    const before = tempListing();
    browser = await launch();
    const page = await browser.context.newPage();
    const email = `voice-canary-${Date.now()}@example.com`;
    await signInOnLocalhost(page, email);
    await turnOnHistoryWithPassphrase(page, "a canary sings only to its keeper");
    expect((await fetch(`${LLM}/__transcript`, { method: "PUT", body: JSON.stringify({ text: run.transcript }) })).ok).toBe(true);
    await fetch(`${LLM}/__transcriptions`, { method: "DELETE" });

    await dictateInto(page, run.transcript);
    const heard = (await (await fetch(`${LLM}/__transcriptions`)).json()) as { bytes: number }[];
    expect(heard).toHaveLength(1);
    await sendAndSave(page, run.canary);
    expect(heard[0]!.bytes).toBe((await recordedOpus(page)).length);

    await checkEverywhere(page, run, { dataDir: E2E_DATA_DIR, log: E2E_APP_LOG, profile: browser.profile }, before, since, email);
  });
});

test.describe("confidential model: the canary is heard in the enclave only", () => {
  let browser: { context: BrowserContext; profile: string } | undefined;
  let run: Run;
  test.beforeAll(async () => {
    run = newRun();
  });
  test.afterAll(async () => {
    await fetch(`${ENCLAVE}/__test/transcript`, { method: "POST", body: "" });
    await browser?.context.close();
    if (browser) fs.rmSync(browser.profile, { recursive: true, force: true });
  });

  test("dictated through the development enclave, sent and saved sealed: the canary and the audio are nowhere else", async () => {
    test.setTimeout(180_000);
    const since = Date.now();
    const before = tempListing();
    browser = await launch(CONFIDENTIAL_APP);
    const page = await browser.context.newPage();
    const email = `voice-canary-confidential-${Date.now()}@example.com`;
    await signInByEmail(page, email);
    await turnOnHistoryWithPassphrase(page, "a canary sings only to its keeper");
    await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
    expect((await fetch(`${ENCLAVE}/__test/transcript`, { method: "POST", body: run.transcript })).ok).toBe(true);

    await dictateInto(page, run.transcript);
    await sendAndSave(page, run.canary);

    await checkEverywhere(page, run, { dataDir: E2E_CONFIDENTIAL_DATA_DIR, log: E2E_CONFIDENTIAL_LOG, profile: browser.profile }, before, since, email);
  });
});
