import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as attestationRoute } from "@/app/api/confidential/attestation/route";
import { POST as transcriptionRoute } from "@/app/api/confidential/audio/transcriptions/route";
import { developmentTranscript, startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { transcribeConfidential } from "@/lib/browser/voice/confidential";
import { PEER_ADDRESS_HEADER } from "@/lib/server/peer-address";
import { closeQuota } from "@/lib/server/quota";
import { CONFIDENTIAL_PATHS, type ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { setEnv } from "../helpers/env";
import { startTamperingRelay, type TamperingRelay } from "./helpers";

/**
 * A confidential dictation (docs/issues.md #52) from the browser's code (lib/browser/voice/confidential.ts) through
 * Hush's real relay route to the development enclave, with a recording proxy in front of Hush: the enclave answers its
 * stand-in transcript, and neither the audio nor the transcript crosses Hush in clear.
 */
let t: TestDb;
let enclave: DevEnclave;
let hush: { url: string; close(): Promise<void> };
let proxy: TamperingRelay;
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";
const CANARY = "AUDIOCANARY-7f3e";

/** The relay routes over HTTP, each request from one visitor address. */
async function serveHush(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set(PEER_ADDRESS_HEADER, "198.51.100.52");
    const request = new Request(`http://localhost:3000${req.url}`, {
      method: req.method,
      headers,
      body: req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: "half",
    } as RequestInit);
    const response = req.url?.startsWith(CONFIDENTIAL_PATHS.attestation) ? await attestationRoute(request) : await transcriptionRoute(request);
    res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
    if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function config(): ConfidentialPublicConfig {
  return {
    models: [BASIC, PRO],
    enclaveModels: { [BASIC]: "dev-basic", [PRO]: "dev-pro" },
    trust: "development",
    enclaveHost: new URL(enclave.url).host,
    configRepo: null,
    contextTokens: { [BASIC]: 32_000 },
    paths: {
      attestation: `${proxy.url}${CONFIDENTIAL_PATHS.attestation}`,
      chat: `${proxy.url}${CONFIDENTIAL_PATHS.chat}`,
      transcriptions: `${proxy.url}${CONFIDENTIAL_PATHS.transcriptions}`,
    },
    modelHeader: "X-Hush-Model",
  } as unknown as ConfidentialPublicConfig;
}

/** A "recording" whose bytes spell the canary, so any copy in clear is found. */
const recording = (seconds = 3) => ({ blob: new Blob([new TextEncoder().encode(`${CANARY} `.repeat(200))], { type: "audio/webm;codecs=opus" }), seconds });

beforeAll(async () => {
  enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0 });
  t = await setupTestDb();
  setEnv({
    CONFIDENTIAL_BASE_URL: enclave.url,
    CONFIDENTIAL_MODELS: `${BASIC},${PRO}`,
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_MODEL_BASIC: "dev-basic",
    CONFIDENTIAL_MODEL_PRO: "dev-pro",
    STT_SECONDS_PER_DAY_VISITOR: "10",
  });
  hush = await serveHush();
  proxy = await startTamperingRelay(hush.url);
});

afterAll(async () => {
  await Promise.all([proxy.close(), hush.close(), enclave.close()]);
  await closeQuota();
  await t.cleanup();
  setEnv({ CONFIDENTIAL_BASE_URL: undefined, CONFIDENTIAL_MODELS: undefined, CONFIDENTIAL_TRUST: undefined, CONFIDENTIAL_MODEL_BASIC: undefined, CONFIDENTIAL_MODEL_PRO: undefined, STT_SECONDS_PER_DAY_VISITOR: undefined });
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  proxy.seen.length = 0;
});

describe("confidential dictation (docs/issues.md #52)", () => {
  it("the enclave's stand-in transcript comes back; a proxy in front of Hush sees neither the audio nor the transcript", async () => {
    const audio = recording();
    const text = await transcribeConfidential(audio, BASIC, config(), { timeoutMs: 10_000 });
    // The enclave opened the multipart body: it names the audio's size.
    expect(text).toBe(developmentTranscript(audio.blob.size));
    const crossed = Buffer.concat(proxy.seen).toString("latin1");
    expect(proxy.seen.length).toBeGreaterThanOrEqual(2);
    expect(crossed).not.toContain(CANARY);
    expect(crossed).not.toContain("no speech model");
    expect(crossed).not.toContain("whisper");
  });

  it("counts the declared seconds like the standard path, refuses a Pro model without Pro and a too-long recording", async () => {
    // 3 of the visitor's 10 seconds went to the first test: 7 more do, 1 more does not.
    await expect(transcribeConfidential(recording(7), BASIC, config(), { timeoutMs: 10_000 })).resolves.toContain("no speech model");
    await expect(transcribeConfidential(recording(1), BASIC, config(), { timeoutMs: 10_000 })).rejects.toMatchObject({ status: 429 });
    await expect(transcribeConfidential(recording(1), PRO, config(), { timeoutMs: 10_000 })).rejects.toMatchObject({ status: 403 });
    await expect(transcribeConfidential(recording(121), BASIC, config(), { timeoutMs: 10_000 })).rejects.toMatchObject({
      status: 400,
      message: "A recording may be at most 120 seconds long.",
    });
  });
});
