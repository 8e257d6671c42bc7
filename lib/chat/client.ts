import { createParser } from "eventsource-parser";

/**
 * Browser side of the chat call (spec §7): POST the conversation, read the Server-Sent Events stream
 * (`delta`, then `done` or `error`; see lib/chat/respond.ts) and hand text to the caller as it arrives.
 */

export type Role = "user" | "assistant" | "system";

export interface ApiMessage {
  role: Role;
  content: string;
}

export interface StagedFile {
  name: string;
  type: string;
  /** A data URL (spec §3 Attached file). */
  content: string;
  size: number;
}

/** A PDF of the conversation as the browser keeps it: name and extracted text (the response's `document`). */
export interface ConversationDocument {
  name: string;
  text: string;
}

/** What the server's context budget left out of a turn's model input (lib/llm/context.ts). */
export interface ContextReport {
  omitted_messages: number;
  omitted_documents: number;
  latest_message_cut: boolean;
}

export interface SendChatInput {
  endpoint: string;
  messages: ApiMessage[];
  model: string;
  file: StagedFile | null;
  /** The conversation's earlier documents, oldest first, so follow-up questions keep them. */
  documents: ConversationDocument[];
  chatId: string | null;
  saveChat: boolean;
  signal: AbortSignal;
  onDelta: (text: string) => void;
}

export interface SendChatResult {
  messages: ApiMessage[];
  chat_id: string | null;
  attachment: { name: string; notice: string | null } | null;
  /** This turn's PDF text, to keep for later turns; null without a PDF. */
  document: ConversationDocument | null;
  context: ContextReport;
}

/** A failed send: `status` is the HTTP status (0 for a network error), `message` the server's text. */
export class ChatSendError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ChatSendError";
  }
}

/**
 * Send one turn and stream the answer.
 * @throws ChatSendError on an HTTP error, a stream error event or a network failure;
 *         DOMException "AbortError" when `signal` aborts.
 */
export async function sendChat(input: SendChatInput): Promise<SendChatResult> {
  let response: Response;
  try {
    response = await fetch(input.endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({
        messages: input.messages,
        model: input.model,
        file: input.file ? { name: input.file.name, type: input.file.type, content: input.file.content } : null,
        documents: input.documents,
        chat_id: input.chatId,
        save_chat: input.saveChat,
      }),
      signal: input.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ChatSendError(0, "Network error");
  }

  if (!response.ok || !response.body) {
    const data = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new ChatSendError(response.status, data?.error ?? `Request failed (${response.status})`);
  }

  let result: SendChatResult | null = null;
  let failure: ChatSendError | null = null;
  const parser = createParser({
    onEvent(event) {
      const data = JSON.parse(event.data) as Record<string, unknown>;
      if (event.event === "delta") input.onDelta(String(data.text ?? ""));
      else if (event.event === "done") result = data as unknown as SendChatResult;
      else if (event.event === "error") failure = new ChatSendError(Number(data.status ?? 502), String(data.error ?? "The answer failed."));
    },
  });

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ChatSendError(0, "The connection was lost while the answer was streaming.");
  }
  if (failure) throw failure;
  if (!result) throw new ChatSendError(502, "The answer ended before it was complete.");
  return result;
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}
