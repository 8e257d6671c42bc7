/**
 * lib/server/llm/sdk-request.ts (docs/issues.md #24): each provider sends, byte for byte in its method, path,
 * headers and body, the request its SDK's own `create()` sends over the same transport (lib/server/llm/http-fetch.ts),
 * and an error status becomes the SDK's own error class with the SDK's fields, as the SDK makes it.
 * The real openai and groq-sdk clients against a local server that records every request whole.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import Groq from "groq-sdk";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { buildModelMessages, getLlmProvider, LlmError, type LlmEvent } from "@/lib/server/llm";
import { llmFetch, takeAnswerBody } from "@/lib/server/llm/http-fetch";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import { sendChatRequest } from "@/lib/server/llm/sdk-request";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const ENV_KEYS = ["GROQ_API_KEY", "GROQ_BASE_URL", "LLM_BASE_URL", "LLM_API_KEY", "LLM_TIMEOUT_MS"];
const seen: Seen[] = [];
/** What the server answers: a short stream, or an error status with a body. */
let answer: { status: number; body: string; headers?: Record<string, string> } | null = null;
let server: http.Server;
let origin: string;

const STREAM =
  'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n' +
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  "data: [DONE]\n\n";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (answer) {
        res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
        res.end(answer.body);
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(STREAM);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  seen.length = 0;
  answer = null;
  for (const key of ENV_KEYS) delete process.env[key];
  resetConfigForTests();
});

const messages = buildModelMessages([
  { role: "user", content: "Hello" },
  { role: "assistant", content: "Hi! How can I help?" },
  { role: "user", content: "What is 2 + 2?" },
]);

async function drain(events: AsyncIterable<LlmEvent>): Promise<{ text: string; error?: unknown }> {
  let text = "";
  try {
    for await (const e of events) if (e.type === "delta") text += e.text;
  } catch (error) {
    return { text, error };
  }
  return { text };
}

const providers = [
  {
    kind: "groq" as const,
    env: () => ({ GROQ_API_KEY: "gsk_same", GROQ_BASE_URL: origin }),
    /** The SDK's own create() of the same request, through the same transport. */
    sdkCreate: () =>
      new Groq({ apiKey: "gsk_same", baseURL: origin, maxRetries: 0, timeout: 10_000, logLevel: "off", fetch: llmFetch }).chat.completions
        .create({ model: "m", messages: toOpenAiMessages(messages) as Groq.Chat.ChatCompletionMessageParam[], stream: true })
        .asResponse(),
    errors: Groq,
  },
  {
    kind: "openai-compatible" as const,
    env: () => ({ LLM_BASE_URL: `${origin}/v1`, LLM_API_KEY: "sk-same" }),
    sdkCreate: () =>
      new OpenAI({ apiKey: "sk-same", baseURL: `${origin}/v1`, organization: null, project: null, maxRetries: 0, timeout: 10_000, logLevel: "off", fetch: llmFetch }).chat.completions
        .create({
          model: "m",
          messages: toOpenAiMessages(messages) as OpenAI.Chat.ChatCompletionMessageParam[],
          stream: true,
          stream_options: { include_usage: true },
        })
        .asResponse(),
    errors: OpenAI,
  },
];

describe.each(providers)("$kind provider's request", ({ env, sdkCreate, errors }) => {
  function provider() {
    Object.assign(process.env, { LLM_TIMEOUT_MS: "10000" }, env());
    resetConfigForTests();
    return getLlmProvider();
  }

  it("is the SDK's own create() request: method, path, every header and the body", async () => {
    const { text, error } = await drain(provider().stream({ model: "m", messages }));
    expect(error).toBeUndefined();
    expect(text).toBe("Hi");
    const response = await sdkCreate();
    takeAnswerBody(response)?.source.resume();
    expect(response.status).toBe(200);

    expect(seen).toHaveLength(2);
    const [ours, sdk] = seen as [Seen, Seen];
    expect(ours.method).toBe(sdk.method);
    expect(ours.url).toBe(sdk.url);
    expect(ours.headers).toEqual(sdk.headers);
    expect(ours.headers.authorization).toMatch(/^Bearer (gsk|sk)-?_?same$/);
    expect(JSON.parse(ours.body)).toEqual(JSON.parse(sdk.body));
    expect(ours.body).toBe(sdk.body);
  });

  it.each([
    { name: "a JSON error (429 with Retry-After)", status: 429, body: JSON.stringify({ error: { message: "slow down", code: "rate_limit_exceeded" } }), headers: { "retry-after": "7" } },
    { name: "a body that is not JSON (502)", status: 502, body: "Bad gateway from a proxy" },
  ])("makes $name the very error the SDK's create() throws", async ({ status, body, headers }) => {
    answer = { status, body, headers };
    const fromSdk = await sdkCreate().catch((e: unknown) => e);
    const request = { url: new URL(seen[0]!.url, origin), method: "POST", headers: { "content-type": "application/json" } };
    const ours = await sendChatRequest(request, { model: "m" }, new AbortController().signal, errors).catch((e: unknown) => e);
    expect(fromSdk).toBeInstanceOf(errors.APIError);
    expect(ours).toBeInstanceOf((fromSdk as object).constructor);
    const [a, b] = [ours, fromSdk] as InstanceType<typeof errors.APIError>[];
    expect(a!.status).toBe(status);
    expect(a!.status).toBe(b!.status);
    expect(a!.message).toBe(b!.message);
    expect(a!.error).toEqual(b!.error);
    expect(a!.headers?.get("retry-after")).toBe(b!.headers?.get("retry-after") ?? null);
  });

  it("maps an error status through the SDK's error to the provider's LlmError", async () => {
    answer = { status: 429, body: JSON.stringify({ error: { message: "slow down", code: "rate_limit_exceeded" } }), headers: { "retry-after": "7" } };
    const { error } = await drain(provider().stream({ model: "m", messages }));
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("rate_limited");
    expect((error as LlmError).retryAfterSeconds).toBe(7);
    expect((error as LlmError).message).not.toContain("slow down");
  });
});
