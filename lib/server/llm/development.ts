// The development responder (no provider configured, never in production): deterministic, for stable screenshots and tests.
import { LlmError } from "./errors";
import { splitDocumentContext } from "@/lib/shared/llm/prompt";
import { splitWebResults } from "@/lib/shared/llm/search-prompt";
import { webPageText } from "@/lib/shared/llm/read-page-prompt";
import { scriptedToolCall } from "@/lib/shared/llm/tools";
import { MEMORY_PREFIX } from "@/lib/shared/llm/memory-prompt";
import { describeImages } from "@/lib/shared/chat/images";
import { standInTitle } from "@/lib/shared/chat/title-request";
import type { LlmEvent, LlmMessage, LlmProvider, LlmRequest } from "@/lib/shared/llm/types";

export const DEVELOPMENT_NOTICE =
  "_This answer comes from Hush's built-in development responder, not from a language model. " +
  "Set GROQ_API_KEY or LLM_BASE_URL to use a real model._";

const QUESTION_MAX_CHARS = 300;
const QUOTED_LINES = 3;
const QUOTED_LINE_MAX_CHARS = 200;
const WORDS_PER_CHUNK = 3;

export interface DevelopmentResponderOptions {
  chunkDelayMs?: number;
}

export function developmentAnswer(messages: readonly LlmMessage[]): string {
  const lastUser = messages.findLast((m) => m.role === "user");
  const title = standInTitle(lastUser?.content ?? "");
  if (title) return title;
  const web = splitWebResults(lastUser?.content ?? "");
  if (!web.results.length && lastUser) {
    const tool = messages.slice(messages.lastIndexOf(lastUser) + 1).find((m) => m.role === "tool");
    if (tool) web.results = splitWebResults(tool.content).results;
  }
  const { question, document, documents } = splitDocumentContext(web.rest);
  const parts = [DEVELOPMENT_NOTICE];
  const asked = clip(question.replace(/\s+/g, " ").trim(), QUESTION_MAX_CHARS);
  parts.push(asked ? `You asked: “${asked}”` : "You sent an empty message.");
  const page = lastUser ? messages.slice(messages.lastIndexOf(lastUser) + 1).map((m) => (m.role === "tool" ? webPageText(m.content) : null)).find((t) => t !== null) : null;
  if (page) parts.push(`From the page: ${clip(page.replace(/\s+/g, " "), QUOTED_LINE_MAX_CHARS)}`);
  const codeRun = lastUser ? messages.slice(messages.lastIndexOf(lastUser) + 1).find((m) => m.role === "tool" && m.content.includes("\n\nOutput:\n")) : undefined;
  if (codeRun) parts.push(`From the code on your device: ${clip(codeRun.content.replace(/\s+/g, " ").trim(), QUOTED_LINE_MAX_CHARS)}`);
  if (web.results.length) {
    parts.push(`From the web: ${web.results.slice(0, 3).map((r, i) => `${clip(r.content.replace(/\s+/g, " "), QUOTED_LINE_MAX_CHARS)} [${i + 1}]`).join(" ")}`);
  }
  if (lastUser?.images?.length) parts.push(`I received ${describeImages(lastUser.images)}.`);
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
  const users = messages.filter((m) => m.role === "user");
  const first = splitDocumentContext(users[0]?.content ?? "").question;
  parts.push(markdownSample(question, sampleKind(first, users.length)));
  if (/\bwhat do you remember\b/i.test(question)) parts.push(rememberedFacts(messages));
  const fact = /\bremember that (.+?)[.!?]?$/i.exec(question.trim())?.[1];
  if (fact && messages.some((m) => m.role === "system" && m.content.includes("<remember>"))) parts.push(`<remember>${clip(fact, 200)}</remember>`);
  return parts.join("\n\n");
}

function rememberedFacts(messages: readonly LlmMessage[]): string {
  const memory = messages.find((m) => m.role === "system" && m.content.startsWith(MEMORY_PREFIX));
  const facts = memory ? memory.content.slice(MEMORY_PREFIX.length).split("\n").filter((l) => l.startsWith("- ")).map((l) => l.slice(2)) : [];
  return facts.length ? `Memories shared with this chat: ${facts.join("; ")}.` : "No memories were shared with this chat.";
}

const SAMPLE_KINDS = ["list", "code", "formula"] as const;

/** A hash of the opening picks the first sample kind; later turns take the next. */
export function sampleKind(firstQuestion: string, turn = 1): (typeof SAMPLE_KINDS)[number] {
  let h = 2166136261;
  for (const ch of firstQuestion.trim()) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
  return SAMPLE_KINDS[(h + Math.max(0, turn - 1)) % SAMPLE_KINDS.length]!;
}

function markdownSample(question: string, kind: (typeof SAMPLE_KINDS)[number]): string {
  const text = question.trim();
  const words = text ? text.split(/\s+/) : [];
  const characters = [...text].length;
  const longest = words.reduce((a, w) => (w.length > a.length ? w : a), "");
  switch (kind) {
    case "list":
      return [
        "A real model would answer here. Answers can hold **lists**, like this one about your message:",
        `- ${words.length === 1 ? "1 word" : `${words.length} words`}, ${characters === 1 ? "1 character" : `${characters} characters`}\n- longest word: \`${clip(longest.replaceAll("`", "'"), 40) || "none"}\``,
      ].join("\n\n");
    case "code":
      return [
        "A real model would answer here. Answers can hold **code blocks** with a copy button:",
        "```json\n" + JSON.stringify({ words: words.length, characters }, null, 2) + "\n```",
      ].join("\n\n");
    case "formula":
      return [
        "A real model would answer here. Answers can hold **formulas**:",
        `$$\\frac{\\text{characters}}{\\text{words}} = \\frac{${characters}}{${words.length}} \\approx ${words.length ? (characters / words.length).toFixed(1) : "0"}$$`,
      ].join("\n\n");
  }
}

/** @throws LlmError "aborted" when the signal fires */
export function createDevelopmentProvider(options: DevelopmentResponderOptions = {}): LlmProvider {
  const delayMs = options.chunkDelayMs ?? 15;
  return {
    kind: "development",
    async *stream(req: LlmRequest): AsyncGenerator<LlmEvent> {
      const call = req.tools?.length ? scriptedToolCall(req.messages, req.tools.map((t) => t.function.name)) : null;
      if (call) {
        await sleep(delayMs, req.signal);
        yield { type: "tool_call", call: { id: `call_dev_${req.messages.length}`, ...call } };
        yield { type: "usage", usage: { promptTokens: 0, completionTokens: Math.ceil(call.arguments.length / 4), estimated: true }, finishReason: "tool_calls" };
        return;
      }
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
        finishReason: "stop",
      };
    },
  };
}

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
