import "client-only";
import { apiStream } from "@/lib/browser/api/client";
import type { ChatResult, ContextReport } from "@/lib/shared/api/contract";
import { AppError } from "@/lib/shared/errors";
import { isAbort, readEventStream } from "./event-stream";
import { contentParts, type MessageImage } from "@/lib/shared/chat/images";
import type { DeviceToolName } from "@/lib/shared/llm/device-tools";
import type { ChatRequestBody, ContinuationStep, ConversationDocument, EveryField, KnowledgePassage, Role } from "@/lib/shared/chat/turn-schema";
import type { WebSearchRecord } from "@/lib/shared/search/record";

/** Browser side of the chat call (docs/product.md §7): POST the turn, read its Server-Sent Events. */

export type { ConversationDocument, KnowledgePassage, Role };

export interface ApiMessage {
  role: Role;
  content: string;
  images?: MessageImage[];
}

/** A PDF staged in the composer, read in the browser: only its name and text are sent, never the file. */
export interface StagedFile {
  name: string;
  text: string;
  truncated: boolean;
  notice: string | null;
  /** An image for a model that reads images, re-encoded in this browser; `text` is then "". */
  image?: StagedImage;
}

export interface StagedImage {
  url: string;
  width: number;
  height: number;
}

export type { ContextReport };

export interface SendChatInput {
  endpoint: "chatVisitor" | "chatSignedIn";
  messages: ApiMessage[];
  model: string;
  file: StagedFile | null;
  documents: ConversationDocument[];
  chatId: string | null;
  saveChat: boolean;
  /** The user's memories, newest first, when memory is on for this chat. */
  memories?: string[];
  instructions?: string | null;
  knowledge?: KnowledgePassage[];
  signal: AbortSignal;
  onDelta: (text: string) => void;
  webSearch?: boolean;
  tools?: DeviceToolName[];
  /** The paused turn's token, its steps so far and the last pause's search record. */
  continuation?: { token: string; steps: ContinuationStep[]; search?: WebSearchRecord } | null;
  onDeviceTool?: (line: string | null) => void;
  /** A search or page-read step began (its progress) or ended (null). */
  onSearch?: (progress: SearchProgress | null) => void;
}

export type SearchProgress =
  | {
      queries: string[];
      engine: string;
    }
  | { page: string };

/** A step paused for this device's tools, with the token that continues the turn (docs/issues.md #50). */
export interface DevicePause {
  tool_calls: ContinuationStep["tool_calls"];
  token: string;
  steps?: ContinuationStep[];
  search?: WebSearchRecord;
}

export type SendChatResult = ChatResult & { paused?: DevicePause };

const sendFailed = (status: number, message: string) => AppError.fromStatus(status, message, "chat_send");

/**
 * Send one turn and stream the answer.
 * @throws AppError on an HTTP error, a stream error event, or a network failure (status 0); AbortError on `signal`
 */
export async function sendChat(input: SendChatInput): Promise<SendChatResult> {
  const body = await apiStream(input.endpoint, { body: chatRequestBody(input), signal: input.signal });

  let result: SendChatResult | null = null;
  let failure: AppError | null = null;
  try {
    await readEventStream(body, (event) => {
      const json: unknown = JSON.parse(event.data);
      const data = json as Record<string, unknown>;
      if (event.event === "delta") input.onDelta(String(data.text ?? ""));
      else if (event.event === "done") result = json as SendChatResult;
      else if (event.event === "tool_calls") result = pausedResult(input, json as DevicePause);
      else if (event.event === "step") input.onSearch?.(searchProgress(data));
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


export function pausedResult(input: Pick<SendChatInput, "messages" | "chatId">, paused: DevicePause): SendChatResult {
  return {
    messages: input.messages.map(({ role, content }) => ({ role, content })),
    chat_id: input.chatId,
    context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false },
    paused,
  };
}

function searchProgress(data: Record<string, unknown>): SearchProgress | null {
  if (data.via === "read") return data.status === "running" ? { page: `${String(data.host ?? "")}${String(data.path ?? "")}` } : null;
  if (data.status !== "running" || !Array.isArray(data.queries)) return null;
  return { queries: data.queries.filter((q): q is string => typeof q === "string"), engine: String(data.engine ?? "") };
}

/** Every field of the turn's body (lib/shared/chat/turn-schema.ts), set here and nowhere else. */
export function chatRequestBody(input: Omit<SendChatInput, "endpoint" | "signal" | "onDelta" | "onDeviceTool">): EveryField<ChatRequestBody> {
  return {
    messages: input.messages.map(wireMessage),
    model: input.model,
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

function wireMessage(m: ApiMessage) {
  return m.images?.length ? { role: m.role, content: contentParts(m.content, m.images) } : { role: m.role, content: m.content };
}
