/**
 * A rung of bench/perf/ladder.ts (docs/issues.md #24): a bare node:http server whose model call is Hush's own
 * provider layer, lib/server/llm/openai-compatible.ts as the app runs it (the request the openai SDK's create()
 * makes, captured once and sent per turn by lib/server/llm/sdk-request.ts through lib/server/llm/http-fetch.ts; sseChunks,
 * streamOpenAiProtocol's timer and cancellation), writing the same delta events as
 * bench/perf/translating-proxy.mjs. No validation, session, quota, prompt or Next.
 * --sdk-create: the same layer with the SDK's create() called per turn (the app until b8f3652): what the
 * SDK's per-request plumbing costs. --no-sdk: the request written by hand and sent with llmFetch: the
 * least this layer can cost. (Only measurements: the app runs the default.)
 *
 *   npx tsx --conditions=react-server bench/perf/llm-layer-proxy.ts --port 5955 --upstream http://127.0.0.1:5851 [--sdk-create | --no-sdk]
 */
import http from "node:http";
import OpenAI from "openai";
import { llmFetch } from "../../lib/server/llm/http-fetch";
import { createOpenAiCompatibleProvider } from "../../lib/server/llm/openai-compatible";
import { sseChunks, streamOpenAiProtocol, type ChunkLike } from "../../lib/server/llm/openai-protocol";
import type { LlmEvent, LlmProvider, LlmRequest } from "../../lib/shared/llm/types";
import { deltaEvents } from "./delta-events.mjs";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const port = Number(arg("port", "5955"));
const baseUrl = `${arg("upstream", "http://127.0.0.1:5851")}/v1`;
const TIMEOUT_MS = 30_000;

/** lib/server/llm/openai-compatible.ts's provider with another way of opening the model's stream. */
const layerWith = (open: (req: LlmRequest, signal: AbortSignal) => Promise<AsyncIterable<ChunkLike[]>>): LlmProvider => ({
  kind: "openai-compatible",
  stream: (req: LlmRequest): AsyncIterable<LlmEvent> =>
    streamOpenAiProtocol({
      provider: "openai-compatible",
      timeoutMs: TIMEOUT_MS,
      signal: req.signal,
      messages: req.messages,
      errors: OpenAI,
      open: (signal) => open(req, signal),
    }),
});
const body = (req: LlmRequest) => ({ model: req.model, messages: req.messages as OpenAI.Chat.ChatCompletionMessageParam[], stream: true as const, stream_options: { include_usage: true } });

/** The request written by hand and sent by llmFetch. */
const withoutSdk = layerWith(async (req, signal) => {
  const response = await llmFetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    signal,
    headers: { "content-type": "application/json", accept: "application/json", authorization: "Bearer bench" },
    body: JSON.stringify(body(req)),
  });
  if (!response.ok) throw new Error(`The model answered ${response.status}.`);
  return sseChunks(response, signal, OpenAI);
});
const sdk = new OpenAI({ apiKey: "bench", baseURL: baseUrl, organization: null, project: null, maxRetries: 0, timeout: TIMEOUT_MS, logLevel: "off", fetch: llmFetch });
/** As lib/server/llm/openai-compatible.ts was until b8f3652: the SDK's create() on every turn. */
const sdkCreate = layerWith(async (req, signal) => sseChunks(await sdk.chat.completions.create(body(req), { signal }).asResponse(), signal, OpenAI));
const provider = process.argv.includes("--no-sdk")
  ? withoutSdk
  : process.argv.includes("--sdk-create")
    ? sdkCreate
    : createOpenAiCompatibleProvider({ baseUrl, apiKey: "bench", timeoutMs: TIMEOUT_MS });
http
  .createServer((req, res) => {
    if (req.method === "GET") return void res.end('{"ok":true}');
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as LlmRequest;
      const out = deltaEvents(res);
      try {
        for await (const e of provider.stream({ model: body.model, messages: body.messages })) if (e.type === "delta") out.delta(e.text);
        out.end();
      } catch {
        if (!res.headersSent) res.statusCode = 502;
        res.end();
      }
    });
  })
  .listen(port, "127.0.0.1", () => console.log(`Hush's lib/server/llm proxy on ${port}${provider === withoutSdk ? " (no SDK)" : provider === sdkCreate ? " (SDK create() per turn)" : ""}`));
