/**
 * The built-in development responder: used only when no provider is configured and not in production
 * (lib/config.ts `llmProvider === "development"`). Deterministic, so screenshots and tests are stable:
 * it restates the user's last message and quotes the opening lines of an attached document, and it
 * says plainly that no language model wrote the answer. Streams in small chunks with a short delay so
 * the streaming UI is visible.
 */
import { LlmError } from "./errors";
import { splitDocumentContext } from "./prompt";
import { standInTitle } from "@/lib/chat/generated-title";
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest } from "./types";

/** Shown with the answer and in the UI (see providerLabel in ./index). */
export const DEVELOPMENT_NOTICE =
  "_This answer comes from Hush's built-in development responder, not from a language model. " +
  "Set GROQ_API_KEY or LLM_BASE_URL to use a real model._";

const QUESTION_MAX_CHARS = 300;
const QUOTED_LINES = 3;
const QUOTED_LINE_MAX_CHARS = 200;
const WORDS_PER_CHUNK = 3;

export interface DevelopmentResponderOptions {
  /** Pause between chunks in milliseconds (default 15). */
  chunkDelayMs?: number;
}

/** The full deterministic answer for a conversation (exported for tests and previews). */
export function developmentAnswer(messages: readonly LlmMessage[]): string {
  const lastUser = messages.findLast((m) => m.role === "user");
  // A generated-title request (docs/issues.md #23) gets a title, not the notice the chat shows.
  const title = standInTitle(lastUser?.content ?? "");
  if (title) return title;
  const { question, document, documents } = splitDocumentContext(lastUser?.content ?? "");
  const parts = [DEVELOPMENT_NOTICE];
  const asked = clip(question.replace(/\s+/g, " ").trim(), QUESTION_MAX_CHARS);
  parts.push(asked ? `You asked: “${asked}”` : "You sent an empty message.");
  if (document) {
    const lines = document.text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, QUOTED_LINES)
      .map((l) => `> ${clip(l, QUOTED_LINE_MAX_CHARS)}`);
    parts.push(
      lines.length
        ? `The attached document “${document.name}” begins:\n\n${lines.join("\n")}`
        : `The attached document “${document.name}” has no text.`,
    );
    if (document.truncated) parts.push("(Only the first part of the document was passed on.)");
    if (documents.length > 1) {
      parts.push(`Documents in this conversation: ${documents.map((d) => `“${d.name}”`).join(", ")}.`);
    }
  }
  parts.push(markdownSample(question));
  return parts.join("\n\n");
}

/** A sample of the Markdown answers may contain, filled with counts of the user's message. */
function markdownSample(question: string): string {
  const text = question.trim();
  const words = text ? text.split(/\s+/).length : 0;
  const characters = [...text].length;
  return [
    "## How answers look",
    "With a model configured, answers can use Markdown, shown like this:",
    "- **Lists** for steps and options\n- `inline code` and code blocks with a copy button\n- Tables for comparisons",
    "```json\n" + JSON.stringify({ words, characters }, null, 2) + "\n```",
    `| Your message | Count |\n| --- | ---: |\n| Words | ${words} |\n| Characters | ${characters} |`,
  ].join("\n\n");
}

/** The development responder as an LlmProvider. @throws LlmError "aborted" when the signal fires */
export function createDevelopmentProvider(options: DevelopmentResponderOptions = {}): LlmProvider {
  const delayMs = options.chunkDelayMs ?? 15;
  return {
    kind: "development",
    async *stream(req: LlmRequest): AsyncGenerator<LlmEvent> {
      const answer = developmentAnswer(req.messages);
      for (const chunk of chunkWords(answer, WORDS_PER_CHUNK)) {
        await sleep(delayMs, req.signal);
        yield { type: "delta", text: chunk };
      }
      if (req.signal?.aborted) throw new LlmError("aborted", { provider: "development" });
      const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
      yield {
        type: "usage",
        usage: { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(answer.length / 4), estimated: true },
      };
    },
  };
}

/** Split into pieces of `n` words, each keeping its trailing whitespace, so joining restores the text. */
function chunkWords(text: string, n: number): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += n) chunks.push(words.slice(i, i + n).join(""));
  return chunks;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new LlmError("aborted", { provider: "development" }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new LlmError("aborted", { provider: "development" }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
