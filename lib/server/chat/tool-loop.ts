import "server-only";
import { getConfig } from "@/lib/server/config";
import { consumeSearchQueries, type QuotaSubject } from "@/lib/server/quota";
import { runQueries, toSource } from "@/lib/server/search/run";
import { heldBackKind } from "@/lib/shared/search/personal-data";
import { formatWebResults, SEARCH_TOOL_FAILED, SEARCH_TOOL_HELD, SEARCH_TOOL_NO_MORE, SEARCH_TOOL_OVER_QUOTA, withSearchToolPrompt } from "@/lib/shared/llm/search-prompt";
import { READ_PAGE_TOOL, READ_PAGE_TOOL_NAME, readUrls, WEB_SEARCH_TOOL, WEB_SEARCH_TOOL_NAME, webSearchQueries, type ToolCall, type ToolDefinition } from "@/lib/shared/llm/tools";
import { withReadPagePrompt } from "@/lib/shared/llm/read-page-prompt";
import { readStep, type ReadStep } from "./tool-read-page";
import type { LlmEvent, LlmMessage, LlmProvider } from "@/lib/shared/llm/types";
import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { SearchStep } from "@/lib/shared/chat/stream-events";
import { MAX_STEP_TOOL_CALLS, SERVER_TOOL_RESULT_MAX_CHARS } from "@/lib/shared/chat/turn-schema";

/** A turn's queries and sources at most: the record's own bounds (lib/shared/search/record.ts), sealed with the answer. */
const MAX_TURN_QUERIES = 10;
const MAX_TURN_SOURCES = 60;

/**
 * The standard path's tool loop (docs/issues.md #50, OpenAI function calling): the model is offered
 * WEB_SEARCH_TOOL, writes its own queries, the server runs them against its SearXNG and hands the results
 * back as a `role: "tool"` message (quoted, untrusted: lib/shared/llm/search-prompt.ts), then calls the model
 * again; at most CHAT_MAX_TOOL_STEPS model calls, the last offered no tools. Queries, results and answers live
 * in this request only: nothing here logs or stores them.
 * Device tools (docs/issues.md #50) are offered beside it; a step that calls one pauses the turn (a `pause` event)
 * after the step's server-run calls ran, and the browser continues it with the results. The pause carries every
 * server-run step of this request (`ran`) and the record is `record()`: the browser echoes both back, so the
 * continued request's model sees the earlier results and its record goes on from the echoed one (docs/issues.md #51).
 * A model call's first MAX_STEP_TOOL_CALLS calls are run, the rest dropped (an echoed step holds no more).
 */

/** One search step as the chat shows it while it happens (SSE `event: step`; the contract in lib/shared/chat/stream-events.ts). */
export type { SearchStep };

/**
 * What the loop yields: the provider's events (the answer's deltas), each step before its search runs, and at most
 * once, last, a pause: the device-tool calls of model call `step` for the browser to run.
 */
export type ToolLoopEvent =
  | LlmEvent
  | { type: "step"; step: SearchStep | ReadStep }
  | { type: "searched"; record: WebSearchRecord }
  | { type: "read"; read: ReadStep }
  | { type: "pause"; calls: ToolCall[]; step: number; ran: ServerStep[] };

/** The server-run calls of one model call with their results, as the model got them (the pause's `steps`). */
export interface ServerStep {
  calls: ToolCall[];
  results: { tool_call_id: string; content: string }[];
}

export interface ToolLoop {
  events: AsyncIterator<ToolLoopEvent>;
  /** The turn's merged record so far: every query in order, every source numbered as the model saw it. */
  record(): WebSearchRecord;
  /** End the turn at whatever step it is (the client went away): the running call or search is aborted. */
  stop(): void;
}

/**
 * Start the loop for one user message.
 * @param input.messages the turn's model input (system prompt first, the user's message last)
 * @param input.subject whose daily search quota the queries count against (each query one, lib/server/quota.ts)
 * @param input.signal the turn's cancellation (client gone, shutdown): ends the whole turn at any step
 * @param input.question the user's own latest message: a personal item it holds may be searched for (docs/issues.md #54)
 * @param input.webSearch offer web_search and read_page (false: device tools only; docs/issues.md #51)
 * @param input.deviceTools the device tools the browser offered (lib/shared/llm/device-tools.ts)
 * @param input.resume a continued turn: the model calls made before this request, the echoed steps' messages
 *   (assistant tool_calls, then role "tool"), appended after the prompt, and the echoed record the turn's goes on from
 * The events throw the provider's LlmError, the abort reason, or a quota store failure; an engine failure is
 * never thrown: it is the step's status "failed" in the record and the model is told.
 */
export function searchToolLoop(input: {
  provider: LlmProvider;
  model: string;
  messages: LlmMessage[];
  subject: QuotaSubject;
  signal: AbortSignal;
  question: string;
  webSearch?: boolean;
  deviceTools?: readonly ToolDefinition[];
  resume?: { calls: number; messages: LlmMessage[]; record?: WebSearchRecord | null };
}): ToolLoop {
  const config = getConfig();
  const webSearch = input.webSearch ?? true;
  const deviceTools = input.deviceTools ?? [];
  const deviceNames = new Set(deviceTools.map((t) => t.function.name));
  const engine = config.search?.host ?? "";
  const record = resumedRecord(input.resume?.record ?? null, engine);
  // The echoed sources stay the turn's: not listed twice, numbered on from, readable (docs/issues.md #51).
  const seen = new Set(record.sources.map((s) => s.url));
  const controller = new AbortController();
  const onAbort = () => controller.abort(input.signal.reason);
  if (input.signal.aborted) onAbort();
  else input.signal.addEventListener("abort", onAbort, { once: true });
  const signal = controller.signal;
  // Set once the day's searches (or the turn's MAX_TURN_QUERIES) are used up: no more tools are offered.
  let exhausted = record.queries.length >= MAX_TURN_QUERIES;
  // The pages this turn may read: links in the user's message, then each search result as it arrives.
  const readable = readUrls(input.question);
  for (const s of record.sources) if (URL.canParse(s.url)) readable.add(new URL(s.url).href);

  /** Run one web_search call (the turn's `n`th): count, announce, search; returns the tool message's content. */
  async function* step(call: ToolCall, n: number): AsyncGenerator<ToolLoopEvent, string> {
    // A further call in the same answer as the step that used the searches up: nothing to announce or count.
    if (exhausted) return SEARCH_TOOL_NO_MORE;
    const written = webSearchQueries(call.arguments).slice(0, MAX_TURN_QUERIES - record.queries.length);
    // Personal data the user did not ask to search for never leaves (docs/issues.md #54, finding 7).
    const held: SearchStep["held"] = [];
    const wanted = written.filter((query) => {
      const kind = heldBackKind(query, input.question);
      if (kind && held.length + (record.held?.length ?? 0) < MAX_TURN_QUERIES) held.push({ query, kind });
      return kind === null;
    });
    if (held.length) record.held = [...(record.held ?? []), ...held];
    const granted = wanted.length ? await consumeSearchQueries(input.subject, wanted.length) : 0;
    const queries = wanted.slice(0, granted);
    if (granted < wanted.length || record.queries.length + granted >= MAX_TURN_QUERIES) exhausted = true;
    const status = !written.length ? "failed" : granted ? "running" : !wanted.length ? "blocked" : "over_quota";
    yield { type: "step", step: { step: n, via: "searxng", engine, queries, refused: wanted.length - granted, held, status } };
    // The first step that did not go well names the turn's status (never hidden).
    const mark = (s: WebSearchRecord["status"]) => {
      if (record.status === "ok") record.status = s;
    };
    if (!queries.length) {
      mark(status === "running" ? "over_quota" : status);
      return status === "failed" ? SEARCH_TOOL_FAILED : status === "blocked" ? SEARCH_TOOL_HELD : SEARCH_TOOL_OVER_QUOTA;
    }
    record.queries.push(...queries);
    const results = await runQueries(queries, signal, seen);
    if (granted < wanted.length) mark("over_quota");
    if (!results) {
      mark("failed");
      return SEARCH_TOOL_FAILED;
    }
    const first = record.sources.length + 1;
    const kept = results.slice(0, MAX_TURN_SOURCES - record.sources.length);
    record.sources.push(...kept.map(toSource));
    for (const r of kept) if (URL.canParse(r.url)) readable.add(new URL(r.url).href);
    return formatWebResults(kept, first);
  }

  async function* loop(): AsyncGenerator<ToolLoopEvent> {
    try {
      let messages = [...(webSearch ? withReadPagePrompt(withSearchToolPrompt(input.messages)) : input.messages), ...(input.resume?.messages ?? [])];
      // Steps go on from the echoed ones' (the chat's step numbers, the turn's MAX_TURN_READS).
      const echoed = (input.resume?.messages ?? []).flatMap((m) => m.tool_calls ?? []);
      let searches = echoed.filter((c) => c.name === WEB_SEARCH_TOOL_NAME).length;
      let reads = echoed.filter((c) => c.name === READ_PAGE_TOOL_NAME).length;
      const ran: ServerStep[] = [];
      for (let call = (input.resume?.calls ?? 0) + 1; ; call += 1) {
        // The last allowed call offers no tools, so the model must answer.
        const offered = [...(webSearch && !exhausted ? [WEB_SEARCH_TOOL] : []), ...(webSearch ? [READ_PAGE_TOOL] : []), ...deviceTools];
        const tools = offered.length && call < config.CHAT_MAX_TOOL_STEPS ? offered : undefined;
        let calls: ToolCall[] = [];
        let text = "";
        let usage: LlmEvent | null = null;
        for await (const event of input.provider.stream({ model: input.model, messages, signal, ...(tools ? { tools } : {}) })) {
          if (event.type === "tool_call") calls.push(event.call);
          else if (event.type === "usage") usage = event;
          else {
            text += event.text;
            yield event;
          }
        }
        // A call of a tool not offered (none on the last step) is not run: the answer is what the model wrote.
        if (!tools || calls.length === 0) {
          if (usage) yield usage;
          return;
        }
        calls = calls.slice(0, MAX_STEP_TOOL_CALLS);
        const onDevice = calls.filter((c) => deviceNames.has(c.name));
        const onServer = calls.filter((c) => !deviceNames.has(c.name));
        const results: ServerStep["results"] = [];
        messages = [...messages, { role: "assistant", content: onDevice.length ? "" : text, tool_calls: onServer }];
        for (const c of onServer) {
          let content = `Unknown tool ${JSON.stringify(c.name.slice(0, 100))}: only ${tools.map((t) => t.function.name).join(", ")} are offered.`;
          if (c.name === WEB_SEARCH_TOOL_NAME && webSearch) {
            searches += 1;
            content = yield* step(c, searches);
            yield { type: "searched", record: snapshot() };
          } else if (c.name === READ_PAGE_TOOL_NAME && webSearch) {
            reads += 1;
            content = yield* readStep(c, reads, readable, signal, (record.pages ??= []));
          }
          if (signal.aborted) throw signal.reason;
          // Within what a continuation echoes back (lib/shared/chat/turn-schema.ts), so the model sees the same either way.
          content = content.slice(0, SERVER_TOOL_RESULT_MAX_CHARS);
          messages.push({ role: "tool", tool_call_id: c.id, content });
          results.push({ tool_call_id: c.id, content });
        }
        if (onServer.length) ran.push({ calls: onServer, results });
        if (onDevice.length) {
          if (usage) yield usage;
          yield { type: "pause", calls: onDevice, step: call, ran };
          return;
        }
      }
    } finally {
      input.signal.removeEventListener("abort", onAbort);
    }
  }

  const snapshot = (): WebSearchRecord => copyRecord(record);
  return { events: loop(), record: snapshot, stop: () => controller.abort(new DOMException("The turn was stopped.", "AbortError")) };
}

/**
 * The record a turn's request starts from: empty for a new turn; for a continued one, the echoed record's queries,
 * sources, held queries, pages and status (the user's own, bounded by its schema), named for this engine.
 */
export function resumedRecord(echoed: WebSearchRecord | null, engine: string): WebSearchRecord {
  return copyRecord({ queries: [], sources: [], status: "ok", ...echoed, via: "searxng", engine });
}

const copyRecord = (record: WebSearchRecord): WebSearchRecord => ({ ...record, queries: [...record.queries], sources: [...record.sources], ...(record.held ? { held: [...record.held] } : {}), ...(record.pages ? { pages: [...record.pages] } : {}) });
