import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/server/config";
import { processSlot } from "@/lib/server/process-state";
import { deriveAuthKey } from "@/lib/server/secret";
import { AppError } from "@/lib/shared/errors";
import type { ToolCall } from "@/lib/shared/llm/tools";

/**
 * Continuation tokens of the device-tool round trip (docs/issues.md #50): when the model calls a tool the browser
 * offered, the turn pauses and the browser gets the calls with a token the server signed (HMAC-SHA-256 under a key
 * derived from the server's secret, lib/server/secret.ts); the browser runs the tools and sends their results with
 * the token to continue. The token binds the caller, the turn, the model calls made so far and the very calls it
 * answers, and is good once, for CONTINUATION_TTL_MS. Checked before anything is counted, so a refused one counts
 * nothing. Single use is kept in this process's memory: a token replayed to another instance is not caught.
 * Format: `c1.<claims as base64url JSON>.<MAC as base64url>`; nothing secret is inside (no message text).
 */

/** How long a paused turn may wait for its device's tool results. */
export const CONTINUATION_TTL_MS = 5 * 60_000;

/** What a continuation token vouches for. */
export interface ContinuationClaims {
  /** Who may continue: a counter key of lib/server/quota.ts ("u:<user id>", "v:<digest>"). */
  caller: string;
  /** The paused turn, a random id chosen when it first paused. */
  turn: string;
  /** Model calls made so far in the turn (the continuation's call is `step + 1`, within CHAT_MAX_TOOL_STEPS). */
  step: number;
  /** SHA-256 of the tool calls answered (id, name, arguments), base64url: results for other calls are refused. */
  calls: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

type UsedTokens = Map<string, number>;
const used = processSlot<UsedTokens>("continuations");

const key = () => deriveAuthKey("chat-continuation");
const mac = (payload: string) => createHmac("sha256", key()).update(payload).digest();

/** The digest of a list of tool calls as ContinuationClaims.calls holds it (order and every field count). */
export function toolCallsDigest(calls: readonly ToolCall[]): string {
  return createHash("sha256")
    .update(JSON.stringify(calls.map((c) => [c.id, c.name, c.arguments])))
    .digest("base64url");
}

/**
 * Sign a pause of `turn` (a new random id when null) after `step` model calls, answering `calls`.
 * @returns the token and its claims
 */
export function signContinuation(input: { caller: string; turn: string | null; step: number; calls: readonly ToolCall[]; now?: number }): {
  token: string;
  claims: ContinuationClaims;
} {
  const claims: ContinuationClaims = {
    caller: input.caller,
    turn: input.turn ?? randomBytes(16).toString("base64url"),
    step: input.step,
    calls: toolCallsDigest(input.calls),
    exp: (input.now ?? Date.now()) + CONTINUATION_TTL_MS,
  };
  const payload = `c1.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return { token: `${payload}.${mac(payload).toString("base64url")}`, claims };
}

const forged = () => new AppError("forbidden:continuation", "This tool result does not belong to a turn of yours. Send your message again.");

/**
 * Check a continuation and use it up: the MAC, the caller, the calls it answers, the expiry, the step budget
 * (CHAT_MAX_TOOL_STEPS) and that it was not used before, in that order; only a token passing all of them is
 * marked used.
 * @returns the claims (continue the turn with call `step + 1`)
 * @throws AppError 403 "forbidden:continuation" forged, altered, another caller's or for other calls;
 *   400 "bad_request:continuation_expired" past its TTL; 400 "bad_request:tool_steps" over the step budget;
 *   409 "conflict:continuation_used" replayed
 */
export function useContinuation(token: string, expected: { caller: string; calls: readonly ToolCall[]; now?: number }): ContinuationClaims {
  const now = expected.now ?? Date.now();
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== "c1" || token.length > 2000) throw forged();
  const payload = `${parts[0]}.${parts[1]}`;
  const given = Buffer.from(parts[2]!, "base64url");
  const wanted = mac(payload);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw forged();
  let claims: ContinuationClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as ContinuationClaims;
  } catch {
    throw forged();
  }
  if (claims.caller !== expected.caller || claims.calls !== toolCallsDigest(expected.calls)) throw forged();
  if (!(claims.exp > now)) throw new AppError("bad_request:continuation_expired", "This tool result came too late. Send your message again.");
  if (!Number.isInteger(claims.step) || claims.step < 1 || claims.step >= getConfig().CHAT_MAX_TOOL_STEPS) {
    throw new AppError("bad_request:tool_steps", "This answer has used all its tool steps. Send your message again.");
  }
  const tokens = (used.value ??= new Map());
  for (const [id, exp] of tokens) if (exp <= now) tokens.delete(id);
  const id = `${claims.turn}:${claims.step}`;
  if (tokens.has(id)) throw new AppError("conflict:continuation_used", "This tool result was already sent.");
  tokens.set(id, claims.exp);
  return claims;
}
