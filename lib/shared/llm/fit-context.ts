import { buildModelMessages, cleanInstructions, conversationTurns, formatDocumentBlock, systemMessages, type HistoryMessage, type ModelAttachment } from "./prompt";
import type { LlmMessage } from "./types";
import { IMAGE_TOKENS } from "@/lib/shared/chat/images";
import { memorySystemMessage, withMemoryMessage } from "./memory-prompt";

/**
 * The context budget: every request fits a total
 * input budget per model, counted approximately, by leaving out the oldest content first: older
 * messages (an image counts IMAGE_TOKENS), then older documents, never the latest user message. If the latest message alone is too
 * long it is cut in the middle with a note. A long conversation therefore never fails; the response
 * says what was left out (`context` in lib/server/chat/respond.ts) and the chat shows a line for it.
 *
 * Browser-safe (no server imports): the server fits a standard turn with it (lib/server/chat/turn.ts), the
 * browser a confidential one (lib/browser/confidential/turn.ts). The budget itself comes from
 * `contextBudgetTokens` in ./providers.ts, the one place it is decided.
 */

/** What was left out of this turn's model input (sent to the browser as the response's `context`). */
export interface ContextReport {
  /** Earlier user/assistant messages not sent to the model (the oldest ones). */
  omitted_messages: number;
  /** Documents of the conversation not sent to the model (the oldest ones). */
  omitted_documents: number;
  /** The latest user message was longer than the whole budget and was cut in the middle. */
  latest_message_cut: boolean;
}

export interface FittedContext {
  /** System prompt (and a project's instructions), the kept turns, the kept documents inside the last user turn. */
  messages: LlmMessage[];
  report: ContextReport;
}

/** Tokens a message costs beyond its text (role and separators in chat templates). */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** A document cut to fit keeps at least this much, else it is left out. */
const MIN_DOCUMENT_TOKENS = 256;
/** Tokens kept back for the note inserted into a cut latest message. */
const CUT_NOTE_TOKENS = 40;

/**
 * Approximate tokens of a text: UTF-8 bytes / 4. For English this is the usual "4 characters a token"
 * of BPE tokenizers; counting bytes rather than characters keeps the estimate on the safe side for
 * scripts whose characters take several bytes (and usually several tokens).
 */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Bytes(text) / 4);
}

/**
 * Build the model input for a conversation within `budgetTokens`.
 * @param history the client's conversation; its last user/assistant turn is the latest user message.
 * @param documents the conversation's documents, oldest first (this turn's PDF last).
 */
export function fitContext(input: {
  history: readonly HistoryMessage[];
  documents: readonly ModelAttachment[];
  budgetTokens: number;
  /** docs/issues.md #41: the user's memories, newest first, when memory is on (./memory-prompt.ts). */
  memories?: readonly string[];
  /** A project's instructions (./prompt.ts `cleanInstructions`), always sent. */
  instructions?: string | null;
}): FittedContext {
  const turns = conversationTurns(input.history);
  const latest = turns.at(-1);
  const older = turns.slice(0, -1);
  const cost = (text: string) => estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS;
  // An image counts a fixed IMAGE_TOKENS (lib/shared/chat/images.ts: its number and source).
  const messageCost = (m: LlmMessage) => cost(m.content) + (m.images?.length ?? 0) * IMAGE_TOKENS;
  // The server's prompt and a project's instructions are always sent.
  const instructions = cleanInstructions(input.instructions);
  const memory = memorySystemMessage(input.memories);
  const systemCost = [...systemMessages(instructions), ...(memory ? [memory] : [])].reduce((n, m) => n + cost(m.content), 0);
  let remaining = input.budgetTokens - systemCost - (latest ? messageCost(latest) : 0);

  if (!latest || remaining < 0) {
    // Not even the latest message fits: it goes alone, cut in the middle.
    const imageCost = (latest?.images?.length ?? 0) * IMAGE_TOKENS;
    const allowed = Math.max(0, input.budgetTokens - systemCost - imageCost - CUT_NOTE_TOKENS - MESSAGE_OVERHEAD_TOKENS);
    const kept = latest ? [{ ...latest, content: cutMiddle(latest.content, allowed) }] : [];
    return {
      messages: withMemoryMessage(buildModelMessages(kept, undefined, instructions), memory),
      report: { omitted_messages: older.length, omitted_documents: input.documents.length, latest_message_cut: Boolean(latest) },
    };
  }

  // Documents come before older messages: drop the oldest documents first only when all older
  // messages are already out.
  const blockCost = (d: ModelAttachment) => estimateTokens(formatDocumentBlock(d)) + 1;
  const docCosts = input.documents.map(blockCost);
  let docs = [...input.documents];
  const allDocs = docCosts.reduce((a, b) => a + b, 0);
  let keptOlder: typeof older = [];
  if (allDocs <= remaining) {
    remaining -= allDocs;
    let start = older.length;
    while (start > 0) {
      const c = messageCost(older[start - 1]!);
      if (c > remaining) break;
      remaining -= c;
      start -= 1;
    }
    keptOlder = older.slice(start);
  } else {
    let total = allDocs;
    let first = 0;
    while (first < docs.length - 1 && total > remaining) {
      total -= docCosts[first]!;
      first += 1;
    }
    docs = docs.slice(first);
    if (total > remaining) {
      // The newest document alone is too long: keep its beginning, marked truncated for the model.
      const only = docs[0]!;
      const room = remaining - (blockCost({ ...only, text: "", truncated: true }) + 1);
      docs = room >= MIN_DOCUMENT_TOKENS ? [{ ...only, text: cutEnd(only.text, room), truncated: true }] : [];
    }
  }

  return {
    messages: withMemoryMessage(buildModelMessages([...keptOlder, latest], docs, instructions), memory),
    report: {
      omitted_messages: older.length - keptOlder.length,
      omitted_documents: input.documents.length - docs.length,
      latest_message_cut: false,
    },
  };
}

/** The start of `text` within about `tokens` tokens (never splitting a surrogate pair). */
function cutEnd(text: string, tokens: number): string {
  return sliceWithinBytes(text, tokens * 4);
}

/** `text` within about `tokens` tokens: its beginning and its end, with a note where the middle was. */
function cutMiddle(text: string, tokens: number): string {
  const half = Math.floor((tokens * 4) / 2);
  const head = sliceWithinBytes(text, half);
  const tail = reverseSliceWithinBytes(text, half);
  const left = text.length - head.length - tail.length;
  return `${head}\n\n[Note: this message was too long for the model's context; ${left.toLocaleString("en-US")} characters in the middle were left out.]\n\n${tail}`;
}

function sliceWithinBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  for (const ch of text) {
    bytes += utf8Bytes(ch);
    if (bytes > maxBytes) break;
    i += ch.length;
  }
  return text.slice(0, i);
}

function reverseSliceWithinBytes(text: string, maxBytes: number): string {
  const chars = Array.from(text);
  let bytes = 0;
  let n = 0;
  for (let k = chars.length - 1; k >= 0; k -= 1) {
    bytes += utf8Bytes(chars[k]!);
    if (bytes > maxBytes) break;
    n += chars[k]!.length;
  }
  return text.slice(text.length - n);
}

const encoder = new TextEncoder();

/** UTF-8 length of `text` in bytes (TextEncoder: the same in the browser and Node). */
function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}
