import type { ApiMessage, SendChatInput, SendChatResult } from "./send-turn";
import { TITLE_REQUEST_HEADER } from "@/lib/shared/chat/title-request";

export { standInTitle, TITLE_REQUEST_HEADER } from "@/lib/shared/chat/title-request";

/**
 * Generated chat titles: after a saved chat's first exchange the browser asks the chat's own
 * model, through the same private path as the chat (an ordinary chat call, standard or confidential,
 * saving nothing), to name it in a few words. The answer is tidied here and then sealed like any title
 * (PATCH /api/ns/chat_title). Nothing new reaches the server in clear: the request is a chat turn.
 */


/** Characters of each side of the exchange sent to be named: enough for a topic, cheap to send. */
const EXCERPT_CHARS = 1500;
/** Longest title kept, in characters (the fallback title's length, lib/browser/vault/seal.ts displayNameFrom). */
const TITLE_MAX_CHARS = 60;

/** The messages of a title request for a first exchange: one user message holding both sides. */
export function titleRequestMessages(question: string, answer: string): ApiMessage[] {
  const cut = (text: string) => (text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text);
  return [
    {
      role: "user",
      content:
        `${TITLE_REQUEST_HEADER} Reply with the title only: no quotes, no full stop, no explanation.\n\n` +
        `<conversation>\nUser: ${cut(question)}\n\nAssistant: ${cut(answer)}\n</conversation>`,
    },
  ];
}


/**
 * The model's answer as a title: its first non-empty line without Markdown, "Title:" or wrapping quotes,
 * cut at 60 characters; null when nothing usable is left (the fallback title stays).
 */
export function cleanTitle(answer: string): string | null {
  const line = answer
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return null;
  let title = line
    .replace(/^#+\s*/, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/^title\s*:\s*/i, "")
    .replace(/^["'“‘«]+|["'”’»]+$/g, "")
    .replace(/[.。]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  if (title.length > TITLE_MAX_CHARS) title = `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
  return title === "" ? null : title;
}

/**
 * Ask `send` (the chat's own turn sender: lib/browser/chat/send-turn.ts sendChat or the confidential one) for a
 * title of the exchange. @returns the title, or null when the call failed or gave nothing usable
 * (the caller keeps the fallback title, silently).
 */
export async function generateTitle(input: {
  send: (input: SendChatInput) => Promise<SendChatResult>;
  model: string;
  question: string;
  answer: string;
  signal?: AbortSignal;
}): Promise<string | null> {
  try {
    const result = await input.send({
      endpoint: "chatSignedIn",
      messages: titleRequestMessages(input.question, input.answer),
      model: input.model,
      file: null,
      documents: [],
      chatId: null,
      saveChat: false,
      signal: input.signal ?? new AbortController().signal,
      onDelta: () => undefined,
    });
    const last = result.messages.at(-1);
    return last?.role === "assistant" ? cleanTitle(last.content) : null;
  } catch {
    return null;
  }
}
