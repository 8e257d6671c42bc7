import "client-only";
import { apiStream } from "@/lib/browser/api/client";
import type { ChatResult, ContextReport } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { isAbort, readEventStream } from "./event-stream";
import { contentParts, type MessageImage } from "@/lib/shared/chat/images";
import type { DeviceToolName } from "@/lib/shared/llm/device-tools";
import type { ChatRequestBody, ContinuationStep, ConversationDocument, EveryField, KnowledgePassage, Role } from "@/lib/shared/chat/turn-schema";
import type { WebSearchRecord } from "@/lib/shared/search/record";

/**
 * Browser side of the chat call (docs/product.md §7): POST the conversation through the typed API client
 * (lib/browser/api/client.ts apiStream), read the Server-Sent Events stream (`delta`, then `done` or `error`;
 * see lib/server/chat/respond.ts) and hand text to the caller as it arrives; with "Search the web" on, each search
 * step of the model's tool loop (`step` before its search runs, `search` after it) as it happens; a turn paused for a
 * device tool (`tool_calls`, docs/issues.md #50) comes back `paused` for lib/browser/chat/turn-runner.ts to continue.
 */

export type { ConversationDocument, KnowledgePassage, Role };

export interface ApiMessage {
  role: Role;
  content: string;
  /** A user message's images, sent as OpenAI content parts after its text. */
  images?: MessageImage[];
}

/**
 * A PDF staged in the composer, already read in the browser (lib/browser/pdf):
 * only its name and extracted text are ever sent, never the file.
 */
export interface StagedFile {
  name: string;
  /** The extracted text (at most PDF_MAX_TEXT_CHARS characters). */
  text: string;
  /** Only part of the PDF was read (pages or characters). */
  truncated: boolean;
  /** The line shown under the sent message when only part was read, or null. */
  notice: string | null;
  /**
   * An image for a model that reads images, resized and re-encoded in this browser
   * (lib/browser/files/image.ts): it travels on its user message, never as `document`; `text` is then "".
   */
  image?: StagedImage;
}

/** An image as the composer holds it: a JPEG data URL (no EXIF: re-encoded) and its size in pixels. */
export interface StagedImage {
  url: string;
  width: number;
  height: number;
}

export type { ContextReport };

export interface SendChatInput {
  /** The visitor call (/api/ns/chat) or the signed-in one (/api/ns/chat_user). */
  endpoint: "chatVisitor" | "chatSignedIn";
  messages: ApiMessage[];
  model: string;
  /** This turn's PDF, read in the browser: sent as `document` (text only). */
  file: StagedFile | null;
  /** The conversation's earlier documents, oldest first, so follow-up questions keep them. */
  documents: ConversationDocument[];
  chatId: string | null;
  saveChat: boolean;
  /** docs/issues.md #41: the user's memories, newest first, when memory is on for this chat; else undefined. */
  memories?: string[];
  /** docs/issues.md #41: the chat's project's instructions, or null outside a project. */
  instructions?: string | null;
  /** docs/issues.md #41: the project files' passages for this turn, best first ([] outside a project). */
  knowledge?: KnowledgePassage[];
  signal: AbortSignal;
  onDelta: (text: string) => void;
  /** "Search the web" is on for this turn. */
  webSearch?: boolean;
  /** docs/issues.md #50: device tools this browser runs, offered to the model ([] or absent: none). */
  tools?: DeviceToolName[];
  /**
   * docs/issues.md #50: the paused turn's token, its steps so far and the last pause's search record
   * (lib/browser/chat/turn-runner.ts).
   */
  continuation?: { token: string; steps: ContinuationStep[]; search?: WebSearchRecord } | null;
  /** A device tool began running on this device (its line, e.g. "Checking this device's time") or ended (null). */
  onDeviceTool?: (line: string | null) => void;
  /** A search or page-read step began (its progress) or ended (null); only a model that calls the web tools has steps. */
  onSearch?: (progress: SearchProgress | null) => void;
}

/**
 * A search running now (SSE `event: step` with status "running", lib/server/chat/tool-loop.ts): the queries exactly
 * as sent and who runs them; the chat shows "Searching the web for: …" until the step's `search` event.
 */
export type SearchProgress =
  | {
      queries: string[];
      /** The SearXNG host. */
      engine: string;
    }
  /** A page being read (`event: step` with `via: "read"`, lib/server/chat/tool-read-page.ts): its host and path, no query. */
  | { page: string };

/**
 * A step paused for this device (docs/issues.md #50): the model's calls of the offered device tools, OpenAI's shape,
 * and the token that continues the turn (SSE `event: tool_calls`, or the relay's continuation header); with what the
 * turn did before it, echoed back with the results (docs/issues.md #51): `steps` the server's own tool calls and their
 * results (standard path), `search` the turn's search record so far.
 */
export interface DevicePause {
  tool_calls: ContinuationStep["tool_calls"];
  token: string;
  steps?: ContinuationStep[];
  search?: WebSearchRecord;
}

/** The chat call's answer (contract chatResultSchema); `paused` instead when the model called a device tool. */
export type SendChatResult = ChatResult & { paused?: DevicePause };

/** A failed send: AppError with the HTTP status (0 for a network error) and the server's text. */
const sendFailed = (status: number, message: string) => AppError.fromStatus(status, message, "chat_send");

/**
 * Send one turn and stream the answer.
 * @throws AppError on an HTTP error (its status and message), a stream error event, or a network failure
 *         (status 0);
 *         DOMException "AbortError" when `signal` aborts.
 */
export async function sendChat(input: SendChatInput): Promise<SendChatResult> {
  const body = await apiStream(input.endpoint, { body: chatRequestBody(input), signal: input.signal });

  let result: SendChatResult | null = null;
  let failure: AppError | null = null;
  try {
    await readEventStream(body, (event) => {
      const data = JSON.parse(event.data) as Record<string, unknown>;
      if (event.event === "delta") input.onDelta(String(data.text ?? ""));
      else if (event.event === "done") result = data as unknown as SendChatResult;
      else if (event.event === "tool_calls") result = pausedResult(input, data as unknown as DevicePause);
      else if (event.event === "step") input.onSearch?.(searchProgress(data));
      // A step's record (it comes again, merged, in `done`, which is what the chat keeps): the search ended.
      else if (event.event === "search" || event.event === "read") input.onSearch?.(null);
      else if (event.event === "error") failure = sendFailed(Number(data.status ?? 502), String(data.error ?? "The answer failed."));
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new AppError("offline:chat_send", "The connection was lost while the answer was streaming.");
  }
  if (failure) throw failure;
  if (!result) throw sendFailed(502, "The answer ended before it was complete.");
  return result;
}


/** A paused step as the result of one request: the conversation as sent, no answer yet (lib/browser/chat/turn-runner.ts continues it). */
export function pausedResult(input: Pick<SendChatInput, "messages" | "chatId">, paused: DevicePause): SendChatResult {
  return {
    messages: input.messages.map(({ role, content }) => ({ role, content })),
    chat_id: input.chatId,
    context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false },
    paused,
  };
}

/** A `step` event's running search, or null for a step that sent nothing (over the day's searches, no usable query). */
function searchProgress(data: Record<string, unknown>): SearchProgress | null {
  if (data.via === "read") return data.status === "running" ? { page: `${String(data.host ?? "")}${String(data.path ?? "")}` } : null;
  if (data.status !== "running" || !Array.isArray(data.queries)) return null;
  return { queries: data.queries.filter((q): q is string => typeof q === "string"), engine: String(data.engine ?? "") };
}

/**
 * Every field of the turn's body (lib/shared/chat/turn-schema.ts), set here and nowhere else: the standard call
 * sends it, a confidential turn assembles its encrypted request from it. The type names each field, so a field
 * added to the schema fails the type check here until it is sent (tests/unit/turn-shape.test.ts).
 */
export function chatRequestBody(input: Omit<SendChatInput, "endpoint" | "signal" | "onDelta" | "onDeviceTool">): EveryField<ChatRequestBody> {
  return {
    messages: input.messages.map(wireMessage),
    model: input.model,
    // An image travels on its user message; only a read document goes as `document`.
    document: input.file && !input.file.image ? { name: input.file.name, text: input.file.text, truncated: input.file.truncated } : null,
    file: null,
    documents: input.documents,
    instructions: input.instructions ?? null,
    knowledge: input.knowledge ?? [],
    memories: input.memories,
    chat_id: input.chatId,
    save_chat: input.saveChat,
    web_search: input.webSearch ?? false,
    tools: input.tools ?? [],
    continuation: input.continuation ?? null,
  };
}

/** A message as the chat API takes it: text, or text and images as OpenAI content parts. */
export function wireMessage(m: ApiMessage) {
  return m.images?.length ? { role: m.role, content: contentParts(m.content, m.images) } : { role: m.role, content: m.content };
}
