/**
 * A fake OpenAI-compatible chat-completions server for tests: plain node:http, no dependencies, so
 * the real groq-sdk and openai clients (and the app in the end-to-end tests) can talk to it.
 *
 * Routes
 *   POST /v1/chat/completions          OpenAI-compatible path (LLM_BASE_URL=http://127.0.0.1:PORT/v1)
 *   POST /openai/v1/chat/completions   groq-sdk's path (GROQ_BASE_URL=http://127.0.0.1:PORT)
 *   GET  /v1/models                    the models seen so far plus "fake-model"
 *   POST /v1/audio/transcriptions      OpenAI-compatible transcription (multipart `file`, `model`, `response_format`)
 *   POST /openai/v1/audio/transcriptions  groq-sdk's transcription path (docs/issues.md #52)
 *   GET  /__transcriptions             the recorded transcription requests as JSON; DELETE clears them
 *   PUT  /__transcript                 `{ "text": "..." }`: every transcription answers that text until DELETE /__transcript
 *                                      (e2e/voice-canary.spec.ts, whose canary is spoken, then "heard" here)
 *   GET  /health                       {"ok":true}
 *   GET  /__requests                   the recorded requests as JSON (for Playwright, which runs this
 *                                      server as a separate process); DELETE /__requests clears them
 *
 * Answers: JSON when `stream` is false; otherwise SSE `data: {...}\n\n` chunks ending with
 * `data: [DONE]`. Usage is reported the way each provider does: on the /openai/v1 path (Groq) in
 * `x_groq.usage` of the last chunk; on /v1 in a final `choices: []` chunk when the request asks for
 * `stream_options.include_usage` (OpenAI).
 *
 * A generated-title request (docs/issues.md #23) is answered `Title: <first six words of its user side>`.
 * Default answer (deterministic): `You asked: <last user text>.` and, when the last user message
 * carries `<document ...>...</document>` blocks (lib/shared/llm/prompt.ts), ` The document begins:
 * <first 100 characters of the first one, whitespace collapsed>` and, with several, ` Documents: N.`
 * A question with "remember that <fact>" also gets `\n\n<remember><fact></remember>` (a suggested memory,
 * docs/issues.md #41). Streamed in chunks of 3 words, 20 ms apart.
 *
 * Web results (docs/issues.md #40; lib/shared/llm/search-prompt.ts): a leading `<web_results>` block is taken off
 * the question and the answer adds ` From the web: <first 80 characters of result 1> [1]` (or ` No web results.`
 * for an empty block). The fake is gullible on purpose: when the user's own text (outside every block) asks it
 * to "reveal the system prompt", it answers `System prompt: <the first system message>`, so a test can show that
 * the same words inside a quoted result are not obeyed.
 *
 * Tools (OpenAI function calling, docs/issues.md #50): when the request offers `tools`, the fake follows
 * lib/shared/llm/tools.ts `scriptedToolCall`: it calls `web_search` with a query written from the conversation,
 * streamed as `delta.tool_calls` pieces (id and name first, the arguments in two pieces) and `finish_reason:
 * "tool_calls"`; once a `role: "tool"` message follows the last user message it answers, adding
 * ` From the web: <first 80 characters of the first result> [1]` when the tool's content is a <web_results> block.
 * With `device_time` offered and a message such as "what time is it on my device?" it calls `device_time` instead,
 * and its answer after the result adds ` On your device: <the result>`.
 * With `run_code` offered and a message holding a ```python block, "the mean of column b" with a CSV attached, or
 * "compute <arithmetic>" it calls `run_code` with that program (docs/issues.md #51), and its answer after the result
 * adds ` From the code on your device: <the result, whitespace collapsed, first 300 characters>`.
 * With `read_page` offered and a message "read <URL>" or "summarise <URL>" it calls `read_page` with `{ url }`
 * (docs/issues.md #51), and its answer after the result adds ` From the page: <first 80 characters of the page's text>`.
 * With `[[fake:tools-forever]]` in the last user message it calls `web_search` again at every request that offers it.
 * `scriptTools(steps)` plans the tool calls of the next requests that offer tools, one entry each, in place of the
 * rule: several calls in one entry are one model step's calls (streamed by index), an empty entry answers.
 *
 * Transcriptions answer `fakeTranscript(<bytes received>)` deterministically (or the text PUT /__transcript set); with `response_format: "verbose_json"` (Groq)
 * also `duration`, in seconds, when the audio is a WAV whose header says it. Each records the audio's byte length and
 * type, never the audio. A forced scenario (`setScenario`) of 429, 500, 400 or hang applies to them as to chats.
 *
 * Trigger words in the last user message select a failure (so browser tests can cause them):
 *   [[fake:429]]        HTTP 429, OpenAI-style error body (code rate_limit_exceeded), Retry-After: 1
 *   [[fake:500]]        HTTP 500, error body
 *   [[fake:400]]        HTTP 400, error code model_decommissioned
 *   [[fake:hang]]       accepts the request and sends nothing (not even headers) for up to 120 s
 *   [[fake:stall]]      sends headers and one delta, then nothing for up to 120 s
 *   [[fake:cut]]        sends two deltas, then destroys the socket (no finish_reason, no [DONE])
 *   [[fake:error-event]] sends one delta, then an SSE `data: {"error": ...}` event and [DONE]
 *   [[fake:slow]]       20 deltas ("Slow part N. "), one every 300 ms (6 s in all): for the Stop button
 *   [[fake:once-TAG]]   HTTP 500 the first time TAG is seen, the default answer after: for Retry
 * `setScenario()` forces a scenario for every request until it is set back to null.
 *
 * Run as a script (Playwright's webServer does): `npx tsx tests/helpers/fake-llm-server.ts --port 4010`
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { fakeAnswer, fakeTitle, scenarioFromText, type FakeScenario } from "./fake-llm-answers";
import { scriptedToolCall } from "../../lib/shared/llm/tools";
import { errorBody, readBody, sendJson, StreamContext, usageOf, words } from "./fake-llm-wire";
import { answerTranscription, type RecordedTranscription } from "./fake-transcription";
import type { ChatBody, FakeLlmServer, RecordedRequest } from "./fake-llm-types";

export { fakeTranscript, wavSeconds, type RecordedTranscription } from "./fake-transcription";

export { fakeAnswer, fakeTitle, scenarioFromText, type FakeScenario };
export type { FakeLlmServer, RecordedRequest } from "./fake-llm-types";


const HANG_MS = 120_000;
const DEFAULT_DELAY_MS = 20;
const SLOW_DELAY_MS = 300;
const SLOW_DELTAS = 20;


/**
 * Start the server on 127.0.0.1 (port 0 = any free port). `delayMs` (default 20) is the pause before
 * each streamed piece of the default answer and `firstTokenMs` (default 0) an extra pause before the
 * first: the load bench sets them to a provider's pace.
 */
export async function startFakeLlmServer(
  options: { port?: number; delayMs?: number; firstTokenMs?: number } = {},
): Promise<FakeLlmServer> {
  const requests: RecordedRequest[] = [];
  const transcriptions: RecordedTranscription[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let forced: FakeScenario | null = null;
  let transcript: string | null = null;
  let planned: { name: string; arguments: string }[][] = [];

  const wait = (ms: number, res: http.ServerResponse) =>
    new Promise<boolean>((resolve) => {
      if (res.destroyed) return resolve(false);
      const onClose = () => {
        clearTimeout(timer);
        timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.off("close", onClose);
        resolve(!res.destroyed);
      }, ms);
      timers.add(timer);
      res.once("close", onClose);
    });

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, errorBody("internal fake server error", "server_error", null));
      else res.destroy();
    });
  });

  // The [[fake:once-TAG]] tags that have failed their one time.
  const failedOnce = new Set<string>();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && path === "/health") return sendJson(res, 200, { ok: true });
    if (req.method === "GET" && path === "/__requests") return sendJson(res, 200, requests);
    if (req.method === "DELETE" && path === "/__requests") {
      requests.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "GET" && path === "/__transcriptions") return sendJson(res, 200, transcriptions);
    if (req.method === "DELETE" && path === "/__transcriptions") {
      transcriptions.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "PUT" && path === "/__transcript") {
      const text = (JSON.parse(await readBody(req)) as { text?: unknown }).text;
      if (typeof text !== "string" || text === "") return sendJson(res, 400, errorBody("Send { text }.", "invalid_request_error", null));
      transcript = text;
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "DELETE" && path === "/__transcript") {
      transcript = null;
      return sendJson(res, 200, { ok: true });
    }
    if (req.method === "POST" && (path === "/v1/audio/transcriptions" || path === "/openai/v1/audio/transcriptions")) return transcription(req, res, path);
    if (req.method === "GET" && (path === "/v1/models" || path === "/openai/v1/models")) {
      const ids = new Set(["fake-model", ...requests.map((r) => r.model)]);
      return sendJson(res, 200, { object: "list", data: [...ids].map((id) => ({ id, object: "model", owned_by: "fake" })) });
    }
    const isGroq = path === "/openai/v1/chat/completions";
    if (req.method !== "POST" || (!isGroq && path !== "/v1/chat/completions")) {
      return sendJson(res, 404, errorBody(`Unknown route ${req.method} ${path}`, "invalid_request_error", "not_found"));
    }

    let body: ChatBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatBody;
    } catch {
      return sendJson(res, 400, errorBody("Request body is not JSON.", "invalid_request_error", null));
    }
    const messages = Array.isArray(body.messages)
      ? (body.messages as { role?: unknown; content?: unknown; tool_calls?: unknown }[]).map((m) => {
          if (m.content === null || m.content === undefined) return { role: String(m.role), content: "", toolCalls: JSON.stringify(m.tool_calls ?? []) };
          if (!Array.isArray(m.content)) return { role: String(m.role), content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) };
          // OpenAI content parts (a vision model's input): the text parts as the content, the image URLs recorded.
          const parts = m.content as { type?: unknown; text?: unknown; image_url?: { url?: unknown } }[];
          const text = parts.filter((p) => p.type === "text").map((p) => String(p.text)).join("\n\n");
          const images = parts.filter((p) => p.type === "image_url").map((p) => String(p.image_url?.url));
          return { role: String(m.role), content: text, images };
        })
      : [];
    const model = typeof body.model === "string" ? body.model : "";
    const stream = body.stream === true;
    const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const once = /\[\[fake:once-([a-z0-9-]+)\]\]/.exec(lastUser)?.[1];
    const failOnce = once !== undefined && !failedOnce.has(once);
    if (failOnce) failedOnce.add(once);
    const scenario = forced ?? (failOnce ? "500" : scenarioFromText(lastUser));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k === "authorization" || k === "cookie" || v === undefined) continue;
      headers[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    const record: RecordedRequest = {
      path,
      model,
      messages,
      stream,
      streamOptions: body.stream_options,
      tools: Array.isArray(body.tools) ? (body.tools as { function?: { name?: unknown } }[]).map((t) => String(t.function?.name ?? "")) : [],
      headers,
      hasAuthorization: typeof req.headers.authorization === "string",
      scenario,
      closedEarly: false,
    };
    requests.push(record);
    res.once("close", () => {
      if (!res.writableFinished) record.closedEarly = true;
    });

    if (!model || messages.length === 0) {
      return sendJson(res, 400, errorBody("model and messages are required.", "invalid_request_error", null));
    }
    switch (scenario) {
      case "429":
        res.setHeader("retry-after", "1");
        return sendJson(
          res,
          429,
          errorBody("Rate limit reached for model (fake).", "requests", "rate_limit_exceeded"),
        );
      case "500":
        return sendJson(res, 500, errorBody("The server had an error (fake).", "server_error", null));
      case "400":
        return sendJson(
          res,
          400,
          errorBody("The model has been decommissioned (fake).", "invalid_request_error", "model_decommissioned"),
        );
      case "hang":
        await wait(HANG_MS, res);
        res.destroy();
        return;
    }

    const ctx = new StreamContext(model, isGroq);
    const promptTokens = Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4);
    // [[fake:tools-forever]]: a model that calls web_search whenever it is offered (the step budget's test).
    const forever = lastUser.includes("[[fake:tools-forever]]");
    const plan = scenario === "default" && record.tools.length && planned.length ? planned.shift()! : null;
    const ruled = scenario === "default" && !plan ? scriptedToolCall(forever ? messages.filter((m) => m.role !== "tool") : messages, record.tools) : null;
    const toolCalls = plan ?? (ruled ? [ruled] : []);
    const callId = `call_fake_${requests.length}`;
    const idOf = (i: number) => (i === 0 ? callId : `${callId}_${i}`);
    const argumentsText = toolCalls.map((c) => c.arguments).join("");

    if (toolCalls.length && !stream) {
      return sendJson(res, 200, {
        id: ctx.id,
        object: "chat.completion",
        created: ctx.created,
        model,
        choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: toolCalls.map((c, i) => ({ id: idOf(i), type: "function", function: c })) }, finish_reason: "tool_calls" }],
        usage: usageOf(promptTokens, argumentsText),
      });
    }
    if (!stream) {
      const content = scenario === "slow" ? slowParts().join("") : fakeAnswer(messages);
      return sendJson(res, 200, {
        id: ctx.id,
        object: "chat.completion",
        created: ctx.created,
        model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: usageOf(promptTokens, content),
      });
    }

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    send(ctx.chunk({ role: "assistant", content: "" }));

    if (scenario === "stall") {
      send(ctx.chunk({ content: "Thinking" }));
      await wait(HANG_MS, res);
      res.destroy();
      return;
    }
    if (scenario === "cut") {
      send(ctx.chunk({ content: "This answer " }));
      await wait(DEFAULT_DELAY_MS, res);
      send(ctx.chunk({ content: "will be cut" }));
      await wait(DEFAULT_DELAY_MS, res);
      res.socket?.destroy();
      return;
    }
    if (scenario === "error-event") {
      send(ctx.chunk({ content: "Partial " }));
      send(errorBody("Upstream failed mid-stream (fake).", "server_error", "internal_error"));
      res.end("data: [DONE]\n\n");
      return;
    }

    if (toolCalls.length) {
      for (const [index, toolCall] of toolCalls.entries()) {
        const half = Math.ceil(toolCall.arguments.length / 2);
        send(ctx.chunk({ tool_calls: [{ index, id: idOf(index), type: "function", function: { name: toolCall.name, arguments: "" } }] }));
        for (const piece of [toolCall.arguments.slice(0, half), toolCall.arguments.slice(half)]) {
          if (!(await wait(options.delayMs ?? DEFAULT_DELAY_MS, res))) return;
          send(ctx.chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
        }
      }
      const usage = usageOf(promptTokens, argumentsText);
      send(ctx.chunk({}, "tool_calls", isGroq ? usage : undefined));
      if (!isGroq && (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true) send(ctx.usageChunk(usage));
      res.end("data: [DONE]\n\n");
      return;
    }
    const parts = scenario === "slow" ? slowParts() : words(fakeAnswer(messages), 3);
    const delay = scenario === "slow" ? SLOW_DELAY_MS : (options.delayMs ?? DEFAULT_DELAY_MS);
    if (scenario !== "slow" && options.firstTokenMs && !(await wait(options.firstTokenMs, res))) return;
    for (const part of parts) {
      if (!(await wait(delay, res))) return;
      send(ctx.chunk({ content: part }));
    }
    const usage = usageOf(promptTokens, parts.join(""));
    send(ctx.chunk({}, "stop", isGroq ? usage : undefined));
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    if (!isGroq && includeUsage) send(ctx.usageChunk(usage));
    res.end("data: [DONE]\n\n");
  }

  const transcription = (req: http.IncomingMessage, res: http.ServerResponse, path: string) =>
    answerTranscription(req, res, path, { scenario: forced, transcript, record: (t) => transcriptions.push(t), hang: (r) => wait(HANG_MS, r) });

  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    transcriptions,
    setScenario(scenario) {
      forced = scenario;
    },
    scriptTools(steps) {
      planned = steps.map((s) => [...s]);
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function slowParts(): string[] {
  return Array.from({ length: SLOW_DELTAS }, (_, i) => `Slow part ${i + 1}. `);
}

async function runAsScript(): Promise<void> {
  const flag = process.argv.indexOf("--port");
  const port = flag >= 0 ? Number(process.argv[flag + 1]) : 4010;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be a port number");
  const server = await startFakeLlmServer({ port });
  console.log(`Fake LLM server listening on ${server.url} (POST /v1/chat/completions, /openai/v1/chat/completions)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (/fake-llm-server\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runAsScript().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
