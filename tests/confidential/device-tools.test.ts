import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { upstreamFromEnv } from "@/dev/enclave-models";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { sendConfidentialTurn } from "@/lib/browser/confidential/turn";
import { runTurn } from "@/lib/browser/chat/turn-runner";
import type { SendChatInput, SendChatResult } from "@/lib/browser/chat/send-turn";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { confidentialPublicConfig } from "@/lib/server/llm/confidential-models";
import { signContinuation } from "@/lib/server/chat/continuation";
import { continuationCaller } from "@/lib/server/chat/device-turn";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import type { ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { DEVICE_TIME_TOOL_NAME } from "@/lib/shared/llm/device-tools";
import { AppError } from "@/lib/shared/errors";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { startFakeSearxng, type FakeSearxng } from "../helpers/fake-searxng";
import { WEB_SEARCH_TOOL_NAME } from "@/lib/shared/llm/tools";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { startTamperingRelay, type TamperingRelay } from "./helpers";
import { serveRelay } from "./relay-server";

/**
 * docs/issues.md #50 item 4, the confidential path: the browser offers its device tools inside the encrypted request,
 * the development enclave (with the tests' fake LLM as its upstream, which calls device_time by
 * lib/shared/llm/tools.ts scriptedToolCall) streams the model's tool_calls back with finish_reason "tool_calls",
 * lib/browser/chat/turn-runner.ts runs the tool here and sends the result in the next encrypted request with the
 * relay's clear continuation token. The relay counts the turn once; forged, replayed and over-budget tokens are
 * refused with 4xx and counted nothing. The proxy in front of Hush sees no tool name, call or result.
 */
let t: TestDb;
let llm: FakeLlmServer;
let enclave: DevEnclave;
let plain: DevEnclave;
let searching: DevEnclave;
let engine: FakeSearxng;
let hush: Awaited<ReturnType<typeof serveRelay>>;
let proxy: TamperingRelay;
const PEER = "203.0.113.7";
const QUESTION = "What time is it on my device?";

function configure(port: number, quota = "10000") {
  Object.assign(process.env, {
    CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${port}`,
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_MODELS: "llama3-8b-8192",
    QUOTA_VISITOR_PER_DAY: quota,
    SEARCH_PER_DAY_VISITOR: "10000",
    CONFIDENTIAL_SEARCH_PII_CHECK: "0",
    CHAT_DEVICE_TOOLS: "device_time",
  });
  resetConfigForTests();
}

function browserConfig(): ConfidentialPublicConfig {
  const config = confidentialPublicConfig()!;
  return { ...config, paths: { attestation: `${proxy.url}/api/confidential/attestation`, chat: `${proxy.url}/api/confidential/chat` } } as ConfidentialPublicConfig;
}

const input = (content = QUESTION, lines: (string | null)[] = []): SendChatInput => ({
  endpoint: "chatVisitor",
  messages: [{ role: "user", content }],
  model: "llama3-8b-8192",
  file: null,
  documents: [],
  chatId: null,
  saveChat: false,
  signal: new AbortController().signal,
  onDelta: () => undefined,
  onDeviceTool: (line) => lines.push(line),
  // What the page offers with CHAT_DEVICE_TOOLS=device_time.
  tools: [DEVICE_TIME_TOOL_NAME],
});

async function status(run: Promise<unknown>): Promise<number> {
  try {
    await run;
    return 200;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).status;
  }
}

beforeAll(async () => {
  llm = await startFakeLlmServer({ delayMs: 0 });
  const upstream = upstreamFromEnv({ ENCLAVE_UPSTREAM_URL: `${llm.url}/v1/`, ENCLAVE_UPSTREAM_MODEL: "upstream-model" })!;
  enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: null, upstream });
  plain = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: null });
  engine = await startFakeSearxng({ port: 0 });
  searching = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: engine.url, upstream });
  t = await setupTestDb();
  hush = await serveRelay();
  proxy = await startTamperingRelay(hush.url);
  // One visitor for the whole file: the continuation token is bound to the caller.
  proxy.options.requestHeaders = (headers) => headers.set("x-test-peer", PEER);
});

afterAll(async () => {
  await closeQuota();
  await closeRateLimits();
  await t.cleanup();
  await proxy.close();
  await hush.close();
  await Promise.all([enclave.close(), plain.close(), searching.close(), engine.close(), llm.close()]);
  for (const k of ["CONFIDENTIAL_BASE_URL", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_MODELS", "QUOTA_VISITOR_PER_DAY", "SEARCH_PER_DAY_VISITOR", "CONFIDENTIAL_SEARCH_PII_CHECK", "CHAT_DEVICE_TOOLS"]) delete process.env[k];
  resetConfigForTests();
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  proxy.seen.length = 0;
  llm.requests.length = 0;
});

describe("a device tool's round trip, confidential path", () => {
  it("through the development enclave: paused, run here, continued; counted once; forged, replayed and over-budget tokens refused uncounted", async () => {
    configure(enclave.port, "2");
    const config = browserConfig();
    const sent: { input: SendChatInput; result: SendChatResult }[] = [];
    const send = async (i: SendChatInput) => {
      const result = await sendConfidentialTurn(i, config);
      sent.push({ input: i, result });
      return result;
    };

    // A forged token first: refused before anything is counted.
    const steps = [{ tool_calls: [{ id: "call_x", type: "function" as const, function: { name: DEVICE_TIME_TOOL_NAME, arguments: "{}" } }], results: [{ role: "tool" as const, tool_call_id: "call_x", content: "{}" }] }];
    expect(await status(sendConfidentialTurn({ ...input(), tools: [DEVICE_TIME_TOOL_NAME], continuation: { token: "c1.e30.AAAA", steps } }, config))).toBe(403);
    const caller = continuationCaller({ kind: "visitor", address: PEER });
    const overBudget = signContinuation({ caller, turn: null, step: getConfig().CHAT_MAX_TOOL_STEPS, calls: [] }).token;
    expect(await status(sendConfidentialTurn({ ...input(), continuation: { token: overBudget, steps } }, config))).toBe(400);

    const lines: (string | null)[] = [];
    const result = await runTurn(send, input(QUESTION, lines));
    expect(sent).toHaveLength(2);
    expect(sent[0]!.result.paused?.tool_calls).toEqual([{ id: expect.any(String), type: "function", function: { name: DEVICE_TIME_TOOL_NAME, arguments: "{}" } }]);
    expect(lines).toEqual(["Checking this device's time…", null]);
    expect(result.messages.at(-1)!.content).toMatch(/On your device: \{"local":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d","zone":"[^"]+"\}/);
    // The upstream was offered the device's tool, then given its result OpenAI's way.
    expect(llm.requests.map((r) => r.tools)).toEqual([[DEVICE_TIME_TOOL_NAME], [DEVICE_TIME_TOOL_NAME]]);
    expect(llm.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool" });

    // The continuation's token again: a replay.
    expect(await status(sendConfidentialTurn(sent[1]!.input, config))).toBe(409);
    // Counted: the round trip's first request only, so one new turn is left today.
    expect(await status(sendConfidentialTurn(input("Hello"), config))).toBe(200);
    expect(await status(sendConfidentialTurn(input("Hello again"), config))).toBe(429);

    // Hush's server saw ciphertext only: no tool name, call or result crossed the proxy in clear.
    for (const secret of ["device_time", "tool_calls", "On your device", '"zone"', QUESTION]) {
      expect(Buffer.concat(proxy.seen).includes(Buffer.from(secret)), secret).toBe(false);
    }
  });

  it("a search before the pause stays in the answer's record (docs/issues.md #51): the continuation carries it, not searching again", async () => {
    configure(searching.port);
    llm.scriptTools([[{ name: WEB_SEARCH_TOOL_NAME, arguments: JSON.stringify({ queries: ["kākāpō breeding season 2026"] }) }], [{ name: DEVICE_TIME_TOOL_NAME, arguments: "{}" }], []]);
    try {
      const sent: SendChatInput[] = [];
      const result = await runTurn((i) => (sent.push(i), sendConfidentialTurn(i, browserConfig())), { ...input("How many kākāpō chicks hatched, and what time is it on my device?"), webSearch: true });
      expect(sent).toHaveLength(2);
      expect(sent[1]!.continuation!.search).toMatchObject({ via: "enclave", queries: ["kākāpō breeding season 2026"] });
      expect(result.search).toMatchObject({ via: "enclave", queries: ["kākāpō breeding season 2026"], status: "ok" });
      expect(result.search!.sources.map((s) => s.url)).toContain("https://example.org/kakapo-season-2026");
      expect(engine.queries).toEqual(["kākāpō breeding season 2026"]);
    } finally {
      llm.scriptTools([]);
    }
  });

  it("the development responder without an upstream calls device_time too and quotes the device's answer", async () => {
    configure(plain.port);
    const result = await runTurn((i) => sendConfidentialTurn(i, browserConfig()), input());
    expect(result.messages.at(-1)!.content).toMatch(/Your device answered: \{"local":/);
  });
});
