import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as transcribe } from "@/app/api/audio/transcriptions/route";
import { getConfig } from "@/lib/server/config";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { setEnv } from "../helpers/env";
import { fakeTranscript, startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * POST /api/audio/transcriptions (docs/issues.md #52): the real route, the real database and the real groq-sdk (and
 * openai) client against the fake transcription server of tests/helpers/fake-llm-server.ts, which records the byte
 * length of the audio it received and answers a deterministic transcript.
 */
let t: TestDb;
let stt: FakeLlmServer;
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";

/** A PCM WAV of `seconds` of silence at 8 kHz mono, 16-bit: its header says its length. */
function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const data = seconds * 8000 * 2;
  const out = new Uint8Array(44 + data);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + data, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 16000, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, data, true);
  return out;
}

function post(body: BodyInit, contentType: string | null, query: Record<string, string>, cookie?: string) {
  const origin = new URL(getConfig().APP_URL).origin;
  const headers: Record<string, string> = { Origin: origin };
  if (contentType) headers["Content-Type"] = contentType;
  if (cookie) headers.Cookie = cookie;
  return transcribe(new Request(`${origin}/api/audio/transcriptions?${new URLSearchParams(query)}`, { method: "POST", headers, body }));
}

async function signedIn(): Promise<string> {
  const user = await createTestUser(`stt-${Math.random().toString(36).slice(2)}@example.com`);
  return sessionCookieFor(user.id);
}

beforeAll(async () => {
  stt = await startFakeLlmServer();
  t = await setupTestDb();
  setEnv({ STT_PROVIDER: "groq", STT_BASE_URL: stt.url, STT_API_KEY: "stt-test", STT_SECONDS_PER_DAY_VISITOR: "10" });
});

afterAll(async () => {
  await t.cleanup();
  await stt.close();
  setEnv({ STT_PROVIDER: undefined, STT_BASE_URL: undefined, STT_API_KEY: undefined, STT_SECONDS_PER_DAY_VISITOR: undefined, STT_MAX_BYTES: undefined });
});

beforeEach(() => {
  stt.transcriptions.length = 0;
  stt.setScenario(null);
});

describe("POST /api/audio/transcriptions (docs/issues.md #52)", () => {
  // First in the file: route calls have no socket peer, so every visitor here is the one unknown client.
  it("a visitor's Opus recording reaches Groq's transcription API through groq-sdk; past the day's seconds it is refused", async () => {
    const audio = new Uint8Array(3000).fill(7);
    const res = await post(audio, "audio/webm;codecs=opus", { model: BASIC, seconds: "6" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toEqual({ text: fakeTranscript(3000), seconds: 6 });
    expect(stt.transcriptions).toEqual([
      { path: "/openai/v1/audio/transcriptions", model: "whisper-large-v3-turbo", responseFormat: "verbose_json", bytes: 3000, type: "audio/webm", hasAuthorization: true },
    ]);
    // 6 of 10 seconds used: 5 more would pass the limit, and reach no provider.
    const over = await post(audio, "audio/webm", { model: BASIC, seconds: "5" });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await over.json()).error).toMatch(/today's dictation time/);
    expect(stt.transcriptions).toHaveLength(1);
    // What is left can still be used.
    expect((await post(audio, "audio/webm", { model: BASIC, seconds: "4" })).status).toBe(200);
  });

  it("takes the recording as the file field of multipart/form-data", async () => {
    const form = new FormData();
    form.set("file", new Blob([wav(2)], { type: "audio/wav" }), "clip.wav");
    const res = await post(form, null, { model: BASIC, seconds: "2" }, await signedIn());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ text: fakeTranscript(44 + 32000), seconds: 2 });
    expect(stt.transcriptions[0]).toMatchObject({ bytes: 44 + 32000, type: "audio/wav" });
  });

  it("refuses what is not audio with 415 and a body past STT_MAX_BYTES with 413, before any provider call", async () => {
    const cookie = await signedIn();
    const text = await post("hello", "text/plain", { model: BASIC, seconds: "1" }, cookie);
    expect(text.status).toBe(415);
    expect((await text.json()).error).toMatch(/Send the recording as audio/);
    const form = new FormData();
    form.set("file", new Blob(["not audio"], { type: "text/plain" }), "a.txt");
    expect((await post(form, null, { model: BASIC, seconds: "1" }, cookie)).status).toBe(415);

    setEnv({ STT_MAX_BYTES: "1024" });
    try {
      const big = await post(new Uint8Array(2048), "audio/ogg", { model: BASIC, seconds: "1" }, cookie);
      expect(big.status).toBe(413);
      expect((await big.json()).error).toMatch(/recording is too large/);
      // A streamed body without Content-Length is counted as it comes.
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new Uint8Array(800));
          c.enqueue(new Uint8Array(800));
          c.close();
        },
      });
      const origin = new URL(getConfig().APP_URL).origin;
      const streamed = await transcribe(
        new Request(`${origin}/api/audio/transcriptions?model=${BASIC}&seconds=1`, { method: "POST", headers: { Origin: origin, "Content-Type": "audio/ogg", Cookie: cookie }, body: stream, duplex: "half" } as RequestInit),
      );
      expect(streamed.status).toBe(413);
    } finally {
      setEnv({ STT_MAX_BYTES: undefined });
    }
    expect(stt.transcriptions).toEqual([]);
  });

  it("refuses a recording longer than STT_MAX_SECONDS, a Pro model without Pro, and a malformed query", async () => {
    const cookie = await signedIn();
    const long = await post(new Uint8Array(10), "audio/webm", { model: BASIC, seconds: "121" }, cookie);
    expect(long.status).toBe(400);
    expect((await long.json()).error).toBe("A recording may be at most 120 seconds long.");
    expect((await post(new Uint8Array(10), "audio/webm", { model: PRO, seconds: "3" }, cookie)).status).toBe(403);
    expect((await post(new Uint8Array(10), "audio/webm", { model: BASIC }, cookie)).status).toBe(400);
    expect((await post(new Uint8Array(10), "audio/webm", { model: "nope", seconds: "3" }, cookie)).status).toBe(400);
    expect(stt.transcriptions).toEqual([]);
  });

  it("a user's seconds are counted atomically in the database and given back when the provider fails", async () => {
    setEnv({ STT_SECONDS_PER_DAY_FREE: "10" });
    try {
      const cookie = await signedIn();
      const audio = new Uint8Array(100);
      // Concurrent recordings at the limit: exactly the remaining allowance is admitted.
      const statuses = await Promise.all([4, 4, 4].map((s) => post(audio, "audio/webm", { model: BASIC, seconds: String(s) }, cookie).then((r) => r.status)));
      expect(statuses.sort()).toEqual([200, 200, 429]);
      stt.setScenario("500");
      const failed = await post(audio, "audio/webm", { model: BASIC, seconds: "2" }, cookie);
      expect(failed.status).toBe(502);
      expect((await failed.json()).error).toMatch(/could not be transcribed/);
      stt.setScenario(null);
      // The failed 2 seconds were given back: 8 of 10 used.
      expect((await post(audio, "audio/webm", { model: BASIC, seconds: "2" }, cookie)).status).toBe(200);
      expect((await post(audio, "audio/webm", { model: BASIC, seconds: "1" }, cookie)).status).toBe(429);
    } finally {
      setEnv({ STT_SECONDS_PER_DAY_FREE: undefined });
    }
  });

  it("a provider that heard a longer recording than declared has the rest counted", async () => {
    setEnv({ STT_SECONDS_PER_DAY_FREE: "20" });
    try {
      const cookie = await signedIn();
      // Declared 2 s, the WAV says 15: 15 are counted, and the next 6 pass the limit of 20.
      const res = await post(wav(15), "audio/wav", { model: BASIC, seconds: "2" }, cookie);
      expect(await res.json()).toMatchObject({ seconds: 15 });
      expect((await post(wav(1), "audio/wav", { model: BASIC, seconds: "6" }, cookie)).status).toBe(429);
      // Declared 2 s of the 5 left, heard 12: the transcript still comes, and the day's seconds end at the limit.
      const past = await post(wav(12), "audio/wav", { model: BASIC, seconds: "2" }, cookie);
      expect(past.status).toBe(200);
      expect(await past.json()).toMatchObject({ text: expect.any(String), seconds: 5 });
      expect((await post(wav(1), "audio/wav", { model: BASIC, seconds: "1" }, cookie)).status).toBe(429);
    } finally {
      setEnv({ STT_SECONDS_PER_DAY_FREE: undefined });
    }
  });

  it("any OpenAI-compatible /v1/audio/transcriptions with STT_BASE_URL and STT_MODEL; off when nothing is configured", async () => {
    setEnv({ STT_PROVIDER: undefined, STT_BASE_URL: `${stt.url}/v1`, STT_MODEL: "local-whisper" });
    try {
      const cookie = await signedIn();
      const res = await post(new Uint8Array(500), "audio/ogg;codecs=opus", { model: BASIC, seconds: "3" }, cookie);
      expect(await res.json()).toEqual({ text: fakeTranscript(500), seconds: 3 });
      expect(stt.transcriptions).toEqual([{ path: "/v1/audio/transcriptions", model: "local-whisper", responseFormat: "json", bytes: 500, type: "audio/ogg", hasAuthorization: true }]);
      setEnv({ STT_BASE_URL: undefined, STT_MODEL: undefined });
      const off = await post(new Uint8Array(500), "audio/ogg", { model: BASIC, seconds: "3" }, cookie);
      expect(off.status).toBe(503);
      expect((await off.json()).error).toMatch(/Dictation is not set up/);
    } finally {
      setEnv({ STT_PROVIDER: "groq", STT_BASE_URL: stt.url, STT_MODEL: undefined });
    }
  });
});
