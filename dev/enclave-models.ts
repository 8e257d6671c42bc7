/** The development enclave's models: an OpenAI-compatible upstream, or the scripted responder. Neither logs. */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { READ_PAGE_TOOL_NAME, scriptedToolCall, WEB_SEARCH_TOOL_NAME, type ToolCall } from "../lib/shared/llm/tools";
import { webPageText } from "../lib/shared/llm/read-page-prompt";
import { splitWebResults, withWebResults, type PromptResult } from "../lib/shared/llm/search-prompt";
import { contentImages, contentText, type MessageImage } from "../lib/shared/chat/images";
import { chunkWords, type ChatRequest } from "./enclave-completion";
import type { LlmMessage } from "../lib/shared/llm/types";
import type { EnclaveModel, ModelEvent, WireMessage } from "./enclave-tools";

export interface EnclaveUpstream {
  url: string;
  apiKey?: string;
  model?: string;
  /** ms. Default 60 000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const PASSED_ON = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "stop", "seed"] as const;

/** Null when `ENCLAVE_UPSTREAM_URL` is unset. @throws Error for a non-http(s) URL */
export function upstreamFromEnv(env: Record<string, string | undefined>): EnclaveUpstream | null {
  const raw = env.ENCLAVE_UPSTREAM_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("ENCLAVE_UPSTREAM_URL must be an http(s) URL such as http://localhost:11434/v1");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("ENCLAVE_UPSTREAM_URL must be an http(s) URL such as http://localhost:11434/v1");
  return {
    url: raw.replace(/\/+$/, ""),
    ...(env.ENCLAVE_UPSTREAM_API_KEY ? { apiKey: env.ENCLAVE_UPSTREAM_API_KEY } : {}),
    ...(env.ENCLAVE_UPSTREAM_MODEL?.trim() ? { model: env.ENCLAVE_UPSTREAM_MODEL.trim() } : {}),
  };
}

/** Throws (without upstream text) on any failure, timeout or unfinished stream. */
export function upstreamModel(upstream: EnclaveUpstream, request: ChatRequest): EnclaveModel {
  const timeoutMs = upstream.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const passedOn = Object.fromEntries(PASSED_ON.filter((k) => request[k] !== undefined).map((k) => [k, request[k]]));
  return async function* ({ messages, tools, signal }) {
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), timeoutMs);
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), timeoutMs);
    };
    try {
      const response = await fetch(`${upstream.url}/chat/completions`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "text/event-stream",
          ...(upstream.apiKey ? { Authorization: `Bearer ${upstream.apiKey}` } : {}),
        },
        body: JSON.stringify({
          ...passedOn,
          model: upstream.model ?? request.model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
          ...(tools.length ? { tools } : {}),
        }),
        signal: AbortSignal.any([signal, idle.signal]),
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`upstream answered ${response.status}`);
      }
      const events: ModelEvent[] = [];
      const calls = new Map<number, ToolCall>();
      let finished = false;
      let failed = false;
      const parser = createParser({
        onEvent(event: EventSourceMessage) {
          if (event.data === "[DONE]") return void (finished = true);
          let chunk: UpstreamChunk;
          try {
            chunk = JSON.parse(event.data) as UpstreamChunk;
          } catch {
            return void (failed = true);
          }
          if (chunk.error) return void (failed = true);
          if (chunk.usage) events.push({ type: "usage", usage: { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 } });
          const choice = chunk.choices?.[0];
          if (typeof choice?.delta?.content === "string" && choice.delta.content !== "") events.push({ type: "delta", text: choice.delta.content });
          for (const piece of choice?.delta?.tool_calls ?? []) {
            const index = typeof piece.index === "number" ? piece.index : 0;
            const call = calls.get(index) ?? { id: "", name: "", arguments: "" };
            if (typeof piece.id === "string" && piece.id) call.id = piece.id;
            if (typeof piece.function?.name === "string") call.name += piece.function.name;
            if (typeof piece.function?.arguments === "string") call.arguments += piece.function.arguments;
            calls.set(index, call);
          }
          if (typeof choice?.finish_reason === "string") finished = true;
        },
      });
      const decoder = new TextDecoder();
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        touch();
        parser.feed(decoder.decode(bytes, { stream: true }));
        if (failed) throw new Error("upstream error event");
        yield* events.splice(0);
      }
      if (!finished) throw new Error("upstream answer ended unfinished");
      yield* events.splice(0);
      if (calls.size) {
        const joined = [...calls.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
        yield { type: "tool_calls", calls: joined };
      }
    } finally {
      clearTimeout(timer);
    }
  };
}

interface UpstreamChunk {
  error?: unknown;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  choices?: {
    delta?: { content?: unknown; tool_calls?: { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } }[] };
    finish_reason?: unknown;
  }[];
}

interface TextMessage {
  role: WireMessage["role"];
  content: string;
  images?: MessageImage[];
}

/** The development responder as a model, calling tools by `scriptedToolCall`. */
export function scriptedModel(answer: (messages: LlmMessage[]) => string, chunkDelayMs: number): EnclaveModel {
  return async function* ({ messages, tools, signal }) {
    const text: TextMessage[] = messages.map((m) => {
      const content = m.content ?? "";
      const images = contentImages(content);
      return images.length ? { role: m.role, content: contentText(content), images } : { role: m.role, content: contentText(content) };
    });
    const promptTokens = Math.ceil(text.reduce((n, m) => n + m.content.length, 0) / 4);
    const call = scriptedToolCall(text, tools.map((t) => t.function.name));
    if (call) {
      yield { type: "tool_calls", calls: [{ id: `call_dev_${messages.length}`, ...call }] };
      yield { type: "usage", usage: { promptTokens, completionTokens: Math.ceil(call.arguments.length / 4) } };
      return;
    }
    const lastUser = text.findLastIndex((m) => m.role === "user");
    const base = text.slice(0, lastUser + 1) as LlmMessage[];
    const clientCallIds = new Set(
      messages
        .slice(lastUser + 1)
        .flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name !== WEB_SEARCH_TOOL_NAME && c.function.name !== READ_PAGE_TOOL_NAME).map((c) => c.id)),
    );
    const after = messages.slice(lastUser + 1).filter((m) => m.role === "tool");
    const deviceResults = after.filter((m) => clientCallIds.has(m.tool_call_id ?? "")).map((m) => contentText(m.content ?? ""));
    const toolContents = after.filter((m) => !clientCallIds.has(m.tool_call_id ?? "")).map((m) => contentText(m.content ?? ""));
    const pages: LlmMessage[] = toolContents.filter((c) => webPageText(c) !== null).map((content) => ({ role: "tool", content }));
    const searched = toolContents.filter((c) => webPageText(c) === null);
    const blocks = searched.filter((c) => c.startsWith("<web_results>"));
    const results: PromptResult[] | null = blocks.length ? blocks.flatMap((c) => splitWebResults(c).results) : null;
    const answered = answer([...(searched.length ? withWebResults(base, results) : base.length ? base : (text as LlmMessage[])), ...pages]);
    const full = deviceResults.length ? `${answered}\n\nYour device answered: ${deviceResults.join(" ")}` : answered;
    for (const piece of chunkWords(full, 3)) {
      if (chunkDelayMs > 0) await new Promise((r) => setTimeout(r, chunkDelayMs));
      if (signal.aborted) return;
      yield { type: "delta", text: piece };
    }
    yield { type: "usage", usage: { promptTokens, completionTokens: Math.ceil(full.length / 4) } };
  };
}
