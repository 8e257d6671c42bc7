import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/server/config";
import { markOnce } from "@/lib/server/rate-limit";
import { deriveAuthKey } from "@/lib/server/secret";
import { AppError } from "@/lib/shared/errors";
import type { ToolCall } from "@/lib/shared/llm/tools";

// Continuation tokens of the device-tool round trip (docs/issues.md #50): `c1.<claims>.<HMAC>`, good once. Without
// REDIS_URL single use is kept per process, so a replay to another instance is not caught.

export const CONTINUATION_TTL_MS = 5 * 60_000;

export interface ContinuationClaims {
  /** A counter key of lib/server/quota.ts. */
  caller: string;
  turn: string;
  step: number;
  calls: string;
  /** Milliseconds since the epoch. */
  exp: number;
}

const key = () => deriveAuthKey("chat-continuation");
const mac = (payload: string) => createHmac("sha256", key()).update(payload).digest();

function toolCallsDigest(calls: readonly ToolCall[]): string {
  return createHash("sha256")
    .update(JSON.stringify(calls.map((c) => [c.id, c.name, c.arguments])))
    .digest("base64url");
}

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

/** Check a continuation and spend it. @throws AppError 403 forged or another caller's; 400 expired or over budget; 409 replayed */
export async function spendContinuation(token: string, expected: { caller: string; calls: readonly ToolCall[]; now?: number }): Promise<ContinuationClaims> {
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
  // Marked for the whole TTL: one limiter per duration, so a shrinking remainder would miss a later replay.
  if (!(await markOnce("continuation", `${claims.turn}:${claims.step}`, CONTINUATION_TTL_MS / 1000))) {
    throw new AppError("conflict:continuation_used", "This tool result was already sent.");
  }
  return claims;
}
