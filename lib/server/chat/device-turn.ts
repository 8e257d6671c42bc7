import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/shared/errors";
import { offeredDeviceTools, RUN_CODE_TOOL_NAME } from "@/lib/shared/llm/device-tools";
import { getConfig } from "@/lib/server/config";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";
import type { QuotaSubject } from "@/lib/server/quota";
import { spendContinuation } from "./continuation";
import { stepCalls, type TurnTools } from "./respond";

// The device-tool round trip (docs/issues.md #50); tool arguments and results are never logged.

export function continuationCaller(subject: QuotaSubject): string {
  if (subject.kind === "user") return `u:${subject.userId}`;
  return `v:${createHash("sha256").update(subject.address ?? "unknown").digest("base64url")}`;
}

/** A body's continuation, checked and spent, or null. @throws AppError 400, 403, 409 */
export async function checkedContinuation(body: ChatRequest, caller: string, callsFunctions: boolean): Promise<TurnTools["resume"]> {
  const continuation = body.continuation;
  if (!continuation) return null;
  if (!callsFunctions) throw new AppError("bad_request:continuation", "This model does not use tools: send your message again.");
  const claims = await spendContinuation(continuation.token, { caller, calls: continuation.steps.flatMap(stepCalls) });
  return { turn: claims.turn, calls: claims.step, steps: continuation.steps, search: continuation.search ?? null };
}

/** With CODE_EXECUTION=off run_code is never offered (docs/issues.md #51). */
export function turnTools(body: ChatRequest, subject: QuotaSubject, resume: TurnTools["resume"]): TurnTools | null {
  const codeOff = getConfig().codeExecution === null;
  const device = offeredDeviceTools(body).filter((t) => !(codeOff && t.function.name === RUN_CODE_TOOL_NAME));
  if (!device.length && !resume) return null;
  return { device, subject, caller: continuationCaller(subject), resume };
}
