import type { ApiMessage, SendChatInput, SendChatResult } from "./send-turn";
import { TITLE_REQUEST_HEADER } from "@/lib/shared/chat/title-request";

export { standInTitle, TITLE_REQUEST_HEADER } from "@/lib/shared/chat/title-request";

// Generated chat titles: the chat's own model names the chat through the same private path as the chat (an
// ordinary chat call that saves nothing); the title is then sealed like any other.


const EXCERPT_CHARS = 1500;
const TITLE_MAX_CHARS = 60;

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

/** Ask `send` for a title of the exchange. @returns the title, or null when the call failed or gave nothing usable */
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
