import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { upstreamFromEnv } from "@/dev/enclave-models";
import { ENCLAVE_SEARCH_PROMPT, MAX_MODEL_CALLS } from "@/dev/enclave-tools";
import { enclaveVerificationCache, verifyEnclave } from "@/lib/browser/confidential/attestation";
import { sendConfidentialRequest } from "@/lib/browser/confidential/ehbp-client";
import { sendConfidentialTurn } from "@/lib/browser/confidential/turn";
import { resetConfigForTests } from "../helpers/process-state";
import { confidentialPublicConfig } from "@/lib/server/llm/confidential-models";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import type { ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { AppError } from "@/lib/shared/errors";
import { MAX_QUERIES_PER_CALL } from "@/lib/shared/llm/tools";
import { SEARCH_CORPUS, startFakeSearxng, type FakeSearxng } from "../helpers/fake-searxng";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { sseContent, startTamperingRelay, type TamperingRelay } from "./helpers";
import { serveRelay } from "./relay-server";

/**
 * docs/issues.md #50 item 6, the confidential half of items 4-5: the development enclave with an upstream model
 * (ENCLAVE_UPSTREAM_URL: the tests' fake OpenAI-compatible server) runs the router's tool loop. A follow-up with
 * search on goes from the browser's client (lib/browser/confidential/turn.ts) through a recording proxy, Hush's
 * real relay routes and a recording TCP tap to the enclave; the model writes the query (lib/shared/llm/tools.ts
 * scriptedToolCall, which the fake follows), the enclave runs it against the fake SearXNG and hands the results
 * back as a `role: "tool"` message. Neither recorder sees the query, a tool call or a result.
 */
let t: TestDb;
let engine: FakeSearxng;
let llm: FakeLlmServer;
let stub: StubUpstream;
let enclave: DevEnclave;
let budgetEnclave: DevEnclave;
let tap: Tap;
let hush: Awaited<ReturnType<typeof serveRelay>>;
let proxy: TamperingRelay;

const KAKAPO = "How many kākāpō chicks hatched in the 2026 breeding season?";
const FOLLOW_UP = "and the year before?";
const WRITTEN = `${KAKAPO} ${FOLLOW_UP}`;
const ENV_KEYS = ["CONFIDENTIAL_BASE_URL", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_MODELS", "QUOTA_VISITOR_PER_DAY", "SEARCH_PER_DAY_VISITOR", "CONFIDENTIAL_SEARCH_PII_CHECK"];

/** A TCP pass-through that records every byte both ways; its target can be switched between tests. */
interface Tap {
  port: number;
  seen: Buffer[];
  /** Send new connections to `port`, cutting the open ones (the relay's kept-alive connection goes too). */
  retarget(port: number): void;
  close(): Promise<void>;
}

async function startTap(targetPort: number): Promise<Tap> {
  const seen: Buffer[] = [];
  const target = { port: targetPort };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, "127.0.0.1");
    for (const sock of [client, upstream]) {
      sockets.add(sock);
      sock.on("close", () => sockets.delete(sock));
      sock.on("error", () => undefined);
      sock.on("data", (d: Buffer) => seen.push(Buffer.from(d)));
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    retarget(port) {
      if (port === target.port) return;
      target.port = port;
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * An OpenAI-compatible upstream that calls web_search with four queries whenever it may (`stubborn`: even when not
 * offered); `parallel`: two calls of two queries in its first step, then it answers.
 */
interface StubUpstream {
  url: string;
  requests: { tools: string[]; messages: { role: string; content: unknown }[] }[];
  stubborn: boolean;
  parallel: boolean;
  close(): Promise<void>;
}

async function startStubUpstream(): Promise<StubUpstream> {
  const stub = { requests: [], stubborn: false, parallel: false } as unknown as StubUpstream;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] };
    stub.requests.push({ tools: (body.tools ?? []).map((tool) => tool.function.name), messages: body.messages });
    const n = stub.requests.length;
    const chunk = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream" });
    if (stub.parallel && n === 1) {
      const call = (i: number) => ({ index: i, id: `call_p${i}`, type: "function", function: { name: "web_search", arguments: JSON.stringify({ queries: [`kākāpō ${i} x`, `kākāpō ${i} y`] }) } });
      res.end(chunk({ tool_calls: [call(0), call(1)] }) + chunk({}, "tool_calls") + "data: [DONE]\n\n");
    } else if (stub.parallel || !(body.tools?.length || stub.stubborn)) {
      res.end(chunk({ content: `Done after ${n} calls [1].` }) + chunk({}, "stop") + "data: [DONE]\n\n");
    } else {
      const args = JSON.stringify({ queries: ["a", "b", "c", "d"].map((x) => `kākāpō step ${n} ${x}`) });
      res.write(chunk({ tool_calls: [{ index: 0, id: `call_${n}`, type: "function", function: { name: "web_search", arguments: "" } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }));
      res.end(chunk({}, "tool_calls") + "data: [DONE]\n\n");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  stub.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}

function configure() {
  Object.assign(process.env, {
    CONFIDENTIAL_BASE_URL: `http://127.0.0.1:${tap.port}`,
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_MODELS: "llama3-8b-8192",
    QUOTA_VISITOR_PER_DAY: "10000",
    SEARCH_PER_DAY_VISITOR: "10000",
    CONFIDENTIAL_SEARCH_PII_CHECK: "0",
  });
  resetConfigForTests();
}

/** The page's public config, the relay paths pointing at the recording proxy in front of Hush. */
function browserConfig(): ConfidentialPublicConfig {
  const config = confidentialPublicConfig()!;
  return { ...config, paths: { attestation: `${proxy.url}/api/confidential/attestation`, chat: `${proxy.url}/api/confidential/chat` } } as ConfidentialPublicConfig;
}

const turn = (messages: { role: "user" | "assistant"; content: string }[], deltas: string[] = []) => ({
  endpoint: "chatVisitor" as const,
  messages,
  model: "llama3-8b-8192",
  file: null,
  documents: [],
  chatId: null,
  saveChat: false,
  signal: new AbortController().signal,
  onDelta: (d: string) => deltas.push(d),
  webSearch: true,
});

const followUp = () =>
  turn([
    { role: "user", content: KAKAPO },
    { role: "assistant", content: "41 chicks hatched that season." },
    { role: "user", content: FOLLOW_UP },
  ]);

/** `text` in clear, base64 or hex anywhere in `seen`. */
function crossed(seen: readonly Buffer[], text: string): boolean {
  const all = Buffer.concat(seen);
  return [Buffer.from(text), Buffer.from(Buffer.from(text).toString("base64").slice(0, 12)), Buffer.from(Buffer.from(text).toString("hex"))].some((n) => all.includes(n));
}

beforeAll(async () => {
  engine = await startFakeSearxng({ port: 0 });
  llm = await startFakeLlmServer({ delayMs: 0 });
  stub = await startStubUpstream();
  const upstream = upstreamFromEnv({ ENCLAVE_UPSTREAM_URL: `${llm.url}/v1/`, ENCLAVE_UPSTREAM_API_KEY: "sk-upstream", ENCLAVE_UPSTREAM_MODEL: "upstream-model" })!;
  enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: engine.url, upstream: { ...upstream, timeoutMs: 1500 } });
  budgetEnclave = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: engine.url, upstream: { url: `${stub.url}/v1` } });
  tap = await startTap(enclave.port);
  t = await setupTestDb();
  hush = await serveRelay();
  proxy = await startTamperingRelay(hush.url);
  configure();
});

afterAll(async () => {
  await closeQuota();
  await closeRateLimits();
  await t.cleanup();
  await proxy.close();
  await hush.close();
  await tap.close();
  await Promise.all([enclave.close(), budgetEnclave.close()]);
  await Promise.all([engine.close(), llm.close(), stub.close()]);
  for (const k of ENV_KEYS) delete process.env[k];
  resetConfigForTests();
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  proxy.seen.length = 0;
  tap.seen.length = 0;
  tap.retarget(enclave.port);
  engine.queries.length = 0;
  llm.requests.length = 0;
  stub.requests.length = 0;
  stub.stubborn = false;
  stub.parallel = false;
  configure();
});

describe("the development enclave with an upstream model (ENCLAVE_UPSTREAM_URL)", () => {
  it("upstreamFromEnv: unset is none, a non-http URL is refused", () => {
    expect(upstreamFromEnv({})).toBeNull();
    expect(upstreamFromEnv({ ENCLAVE_UPSTREAM_URL: " " })).toBeNull();
    expect(() => upstreamFromEnv({ ENCLAVE_UPSTREAM_URL: "file:///etc/passwd" })).toThrow(/http/);
    expect(upstreamFromEnv({ ENCLAVE_UPSTREAM_URL: "http://localhost:11434/v1/" })).toEqual({ url: "http://localhost:11434/v1" });
  });

  it("a follow-up is searched with the model-written query that carries the earlier topic; the upstream got tools, then a role tool message", async () => {
    const deltas: string[] = [];
    const input = followUp();
    input.onDelta = (d) => deltas.push(d);
    const result = await sendConfidentialTurn(input, browserConfig());

    // The query the model wrote, exactly as the engine received it, and the record the browser built from the markers.
    expect(engine.queries).toEqual([WRITTEN]);
    expect(result.search).toMatchObject({ via: "enclave", engine: `127.0.0.1:${tap.port}`, queries: [WRITTEN], status: "ok" });
    expect(result.search!.sources[0]).toEqual({ url: SEARCH_CORPUS[0]!.url, title: SEARCH_CORPUS[0]!.title });
    const answer = result.messages.at(-1)!.content;
    expect(answer).toContain(`You asked: ${FOLLOW_UP} From the web: The 2026 kākāpō breeding season produced 41 chicks`);
    expect(answer).toMatch(/\[1\]$/);
    expect(answer).not.toContain("tinfoil-event");
    expect(answer).not.toContain("](https://");
    expect(deltas.join("")).toBe(answer);

    // The upstream: offered web_search with the conversation, then handed the results as a role "tool" message.
    expect(llm.requests).toHaveLength(2);
    const [first, second] = llm.requests as unknown as (Omit<FakeLlmServer["requests"][number], "messages"> & { messages: { role: string; content: string; toolCalls?: string }[] })[];
    expect(first!.tools).toEqual(["web_search", "read_page"]);
    expect(first!.model).toBe("upstream-model");
    expect(first!.hasAuthorization).toBe(true);
    expect(first!.stream).toBe(true);
    expect(first!.messages.some((m) => m.role === "system" && m.content === ENCLAVE_SEARCH_PROMPT)).toBe(true);
    expect(first!.messages.filter((m) => m.role !== "system").map((m) => m.content)).toEqual([KAKAPO, "41 chicks hatched that season.", FOLLOW_UP]);
    const toolCall = second!.messages.find((m) => m.role === "assistant" && m.toolCalls);
    expect(JSON.parse(toolCall!.toolCalls!)).toEqual([{ id: "call_fake_1", type: "function", function: { name: "web_search", arguments: JSON.stringify({ queries: [WRITTEN] }) } }]);
    const tool = second!.messages.at(-1)!;
    expect(tool.role).toBe("tool");
    expect(tool.content).toMatch(/^<web_results>\n<result index="1" title="Kākāpō breeding season 2026 report"/);
    expect(tool.content).toContain("41 chicks on Whenua Hou");

    // Neither the proxy in front of Hush nor the tap between Hush's relay and the enclave saw any of it in clear.
    expect(proxy.seen.length).toBeGreaterThanOrEqual(4);
    expect(tap.seen.length).toBeGreaterThan(0);
    for (const secret of [WRITTEN, FOLLOW_UP, KAKAPO, "year before", "Whenua Hou", "41 chicks", SEARCH_CORPUS[0]!.url, "tool_calls", "tool_call_id", '"tools"', "tinfoil.web_search_call", "<web_results>", "You asked"]) {
      expect(crossed(proxy.seen, secret), `proxy: ${secret}`).toBe(false);
      expect(crossed(tap.seen, secret), `tap: ${secret}`).toBe(false);
    }
  });

  it("the decrypted stream carries the router's markers: in_progress, then completed with the query exactly as sent and its sources", async () => {
    const document = await (await fetch(`${enclave.url}/.well-known/tinfoil-attestation`)).json();
    const verified = await verifyEnclave(document, { trust: "development", enclaveHost: new URL(enclave.url).host, configRepo: "" });
    const body = JSON.stringify({ model: "gpt-oss-20b", stream: true, web_search_options: {}, messages: followUp().messages });
    const { response } = await sendConfidentialRequest(verified, `${enclave.url}/v1/chat/completions`, body, {
      headers: { "Content-Type": "application/json", "X-Tinfoil-Events": "web_search" },
    });
    const { content, done } = sseContent(await response.text());
    expect(done).toBe(true);
    const markers = [...content.matchAll(/\n<tinfoil-event>(.*?)<\/tinfoil-event>\n/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);
    expect(markers.map((m) => m.status)).toEqual(["in_progress", "completed"]);
    for (const m of markers) expect(m).toMatchObject({ type: "tinfoil.web_search_call", item_id: markers[0]!.item_id, action: { type: "search", query: WRITTEN } });
    expect((markers[1]!.sources as { url: string }[])[0]!.url).toBe(SEARCH_CORPUS[0]!.url);
    expect(content).toContain(`[1](${SEARCH_CORPUS[0]!.url})`);
  });

  it("a JSON (not streamed) answer holds the markers, the cited answer and its url_citation annotations", async () => {
    const document = await (await fetch(`${enclave.url}/.well-known/tinfoil-attestation`)).json();
    const verified = await verifyEnclave(document, { trust: "development", enclaveHost: new URL(enclave.url).host, configRepo: "" });
    const body = JSON.stringify({ model: "gpt-oss-20b", web_search_options: {}, messages: followUp().messages });
    const { response } = await sendConfidentialRequest(verified, `${enclave.url}/v1/chat/completions`, body, {
      headers: { "Content-Type": "application/json", "X-Tinfoil-Events": "web_search" },
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { model: string; choices: { message: { content: string; annotations: { url_citation: { url: string } }[] } }[] };
    expect(json.model).toBe("gpt-oss-20b");
    const { content, annotations } = json.choices[0]!.message;
    expect(content.match(/<tinfoil-event>/g)).toHaveLength(2);
    expect(content).toContain(`[1](${SEARCH_CORPUS[0]!.url})`);
    expect(annotations.map((a) => a.url_citation.url)).toEqual([SEARCH_CORPUS[0]!.url]);
  });

  it("a model-written query that looks like personal data is blocked under pii_check_options: never sent, the model told so", async () => {
    configure();
    process.env.CONFIDENTIAL_SEARCH_PII_CHECK = "1";
    resetConfigForTests();
    const result = await sendConfidentialTurn(
      turn([
        { role: "user", content: "Who is jane.doe@example.com on the kākāpō team?" },
        { role: "assistant", content: "I do not know." },
        { role: "user", content: "and her phone?" },
      ]),
      browserConfig(),
    );
    expect(engine.queries).toEqual([]);
    expect(result.search).toMatchObject({ queries: ["Who is jane.doe@example.com on the kākāpō team? and her phone?"], sources: [], status: "blocked" });
    expect(llm.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: "tool", content: expect.stringMatching(/not run/) });
  });

  it(`the step budget: at most ${MAX_MODEL_CALLS} model calls, ${MAX_QUERIES_PER_CALL} queries a step, the last call without tools`, async () => {
    tap.retarget(budgetEnclave.port);
    const result = await sendConfidentialTurn(turn([{ role: "user", content: "Keep searching about the kākāpō, please." }]), browserConfig());
    expect(stub.requests).toHaveLength(MAX_MODEL_CALLS);
    expect(stub.requests.map((r) => r.tools)).toEqual([...Array(MAX_MODEL_CALLS - 1).fill(["web_search", "read_page"]), []]);
    expect(stub.requests.at(-1)!.messages.filter((m) => m.role === "tool")).toHaveLength(MAX_MODEL_CALLS - 1);
    const expected = Array.from({ length: MAX_MODEL_CALLS - 1 }, (_, i) => ["a", "b", "c"].map((x) => `kākāpō step ${i + 1} ${x}`)).flat();
    expect([...engine.queries].sort()).toEqual([...expected].sort());
    expect([...result.search!.queries].sort()).toEqual([...expected].sort());
    expect(result.search!.status).toBe("ok");
    expect(result.messages.at(-1)!.content).toBe(`Done after ${MAX_MODEL_CALLS} calls [1].`);
  });

  it(`parallel tool calls of one step share its ${MAX_QUERIES_PER_CALL} queries; each call gets its own role tool message`, async () => {
    tap.retarget(budgetEnclave.port);
    stub.parallel = true;
    const result = await sendConfidentialTurn(turn([{ role: "user", content: "Search twice about the kākāpō, please." }]), browserConfig());
    expect([...engine.queries].sort()).toEqual(["kākāpō 0 x", "kākāpō 0 y", "kākāpō 1 x"]);
    const tools = stub.requests[1]!.messages.filter((m) => m.role === "tool") as unknown as { tool_call_id: string; content: string }[];
    expect(tools.map((m) => m.tool_call_id)).toEqual(["call_p0", "call_p1"]);
    expect(tools[0]!.content).toMatch(/^<web_results>\n<result index="1"/);
    expect(result.messages.at(-1)!.content).toBe("Done after 2 calls [1].");
  });

  it("a model that still calls tools on its last call ends the answer with an error event", async () => {
    tap.retarget(budgetEnclave.port);
    stub.stubborn = true;
    const error = await sendConfidentialTurn(turn([{ role: "user", content: "Keep searching about the kākāpō, please." }]), browserConfig()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(502);
    expect(stub.requests).toHaveLength(MAX_MODEL_CALLS);
  });

  it("an upstream that cannot be reached gives an error event", async () => {
    const unreachable = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: engine.url, upstream: { url: "http://127.0.0.1:1/v1" } });
    try {
      tap.retarget(unreachable.port);
      const error = await sendConfidentialTurn(turn([{ role: "user", content: "Tell me about the kākāpō." }]), browserConfig()).catch((e: unknown) => e);
      expect((error as AppError).status).toBe(502);
      expect(engine.queries).toEqual([]);
    } finally {
      tap.retarget(enclave.port);
      await unreachable.close();
    }
  });

  it.each([
    ["answers 500", "[[fake:500]]"],
    ["cuts the stream", "[[fake:cut]]"],
    ["never answers (the enclave's upstream timeout)", "[[fake:hang]]"],
  ])("an upstream that %s gives an error event, not a hang", async (_, trigger) => {
    const started = Date.now();
    const error = await sendConfidentialTurn(turn([{ role: "user", content: `Tell me about the kākāpō ${trigger}` }]), browserConfig()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(502);
    expect((error as AppError).message).toBe("The model service did not answer.");
    // The silent upstream holds on for 120 s: the enclave's 1.5 s limit ended this, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
