import { buildModelMessages, cleanInstructions, conversationTurns, formatDocumentBlock, systemMessages, type HistoryMessage, type ModelAttachment } from "./prompt";
import type { LlmMessage } from "./types";
import { IMAGE_TOKENS } from "@/lib/shared/chat/images";
import { memorySystemMessage, withMemoryMessage } from "./memory-prompt";

/**
 * The context budget: every request fits the model's input budget, counted approximately, by leaving out the oldest
 * content first (older messages, then older documents), never the latest user message, which is cut in the middle
 * only when it alone is too long. Browser-safe: the server and a confidential turn both fit with it.
 */

export interface ContextReport {
  omitted_messages: number;
  omitted_documents: number;
  latest_message_cut: boolean;
}

export interface FittedContext {
  messages: LlmMessage[];
  report: ContextReport;
}

const MESSAGE_OVERHEAD_TOKENS = 4;
const MIN_DOCUMENT_TOKENS = 256;
const CUT_NOTE_TOKENS = 40;

/** Approximate tokens of a text: UTF-8 bytes / 4 (bytes, not characters, stays safe for multi-byte scripts). */
export function estimateTokens(text: string): number {
  return Math.ceil(utf8Bytes(text) / 4);
}

/** Build the model input for a conversation within `budgetTokens`; `documents` oldest first. */
export function fitContext(input: {
  history: readonly HistoryMessage[];
  documents: readonly ModelAttachment[];
  budgetTokens: number;
  memories?: readonly string[];
  instructions?: string | null;
}): FittedContext {
  const turns = conversationTurns(input.history);
  const latest = turns.at(-1);
  const older = turns.slice(0, -1);
  const cost = (text: string) => estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS;
  const messageCost = (m: LlmMessage) => cost(m.content) + (m.images?.length ?? 0) * IMAGE_TOKENS;
  const instructions = cleanInstructions(input.instructions);
  const memory = memorySystemMessage(input.memories);
  const systemCost = [...systemMessages(instructions), ...(memory ? [memory] : [])].reduce((n, m) => n + cost(m.content), 0);
  let remaining = input.budgetTokens - systemCost - (latest ? messageCost(latest) : 0);

  if (!latest || remaining < 0) {
    const imageCost = (latest?.images?.length ?? 0) * IMAGE_TOKENS;
    const allowed = Math.max(0, input.budgetTokens - systemCost - imageCost - CUT_NOTE_TOKENS - MESSAGE_OVERHEAD_TOKENS);
    const kept = latest ? [{ ...latest, content: cutMiddle(latest.content, allowed) }] : [];
    return {
      messages: withMemoryMessage(buildModelMessages(kept, undefined, instructions), memory),
      report: { omitted_messages: older.length, omitted_documents: input.documents.length, latest_message_cut: Boolean(latest) },
    };
  }

  // Documents come before older messages: the oldest documents go only once all older messages are out.
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

function cutEnd(text: string, tokens: number): string {
  return sliceWithinBytes(text, tokens * 4);
}

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

function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}
