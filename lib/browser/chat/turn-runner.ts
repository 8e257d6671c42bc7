import "client-only";
import {
  DEVICE_TIME_TOOL_NAME,
  deviceTimeResult,
  MAX_CONTINUATION_STEPS,
  MAX_STEP_TEXT,
  MAX_TOOL_STEPS,
  RUN_CODE_TOOL_NAME,
  runCodeSource,
  type DeviceToolName,
} from "@/lib/shared/llm/device-tools";
import type { ContinuationStep } from "@/lib/shared/chat/turn-schema";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { AppError } from "@/lib/shared/errors";
import type { DevicePause, SendChatInput, SendChatResult } from "./send-turn";
import type { WebSearchRecord } from "@/lib/shared/search/record";

// The browser's one turn runner (docs/issues.md #50): it offers this device's tools, runs the ones the model calls
// and sends the results back with the pause's token until the model answers, on either path. No React.

const RUNNING_LINE: Record<DeviceToolName, string> = {
  [DEVICE_TIME_TOOL_NAME]: "Checking this device's time",
  [RUN_CODE_TOOL_NAME]: "Running code on this device",
};

export interface DeviceToolOptions {
  code?: { timeoutMs: number } | null;
}

export const DEVICE_TOOL_FAILED_LINE = "A tool on this device failed, so this answer does not use its result.";

export type TurnResult = SendChatResult & { tools?: ToolStep[] };

/**
 * Run one turn to its answer; it ends with DEVICE_TOOL_FAILED_LINE when a tool failed.
 * @throws what `send` throws (AbortError on Stop); AppError 502 past MAX_CONTINUATION_STEPS
 */
export async function runTurn(send: (input: SendChatInput) => Promise<SendChatResult>, input: SendChatInput, options: DeviceToolOptions = {}): Promise<TurnResult> {
  let steps: ContinuationStep[] = [];
  let search: WebSearchRecord | undefined;
  const tools: ToolStep[] = [];
  let token: string | null = null;
  let failed = false;
  const offered = input.tools ?? [];
  for (;;) {
    const result = await send({ ...input, tools: offered, continuation: token ? { token, steps, ...(search ? { search } : {}) } : null });
    if (!result.paused) {
      const answer = failed ? withFailureLine(result) : result;
      return tools.length ? { ...answer, tools } : answer;
    }
    if (steps.length + (result.paused.steps?.length ?? 0) >= MAX_CONTINUATION_STEPS) throw AppError.fromStatus(502, "The model kept calling tools without answering.");
    const results: ContinuationStep["results"] = [];
    for (const call of result.paused.tool_calls) {
      input.signal.throwIfAborted();
      const name = call.function.name as DeviceToolName;
      input.onDeviceTool?.(`${RUNNING_LINE[name] ?? "Running a tool on this device"}…`);
      const outcome = await runDeviceTool(name, call.function.arguments, input, options);
      if (outcome.failed) failed = true;
      if (tools.length < MAX_TOOL_STEPS) tools.push({
        name: call.function.name.slice(0, 100),
        arguments: call.function.arguments.slice(0, MAX_STEP_TEXT),
        result: outcome.content.slice(0, MAX_STEP_TEXT),
        ok: !outcome.failed,
      });
      results.push({ role: "tool", tool_call_id: call.id, content: outcome.content });
    }
    input.onDeviceTool?.(null);
    input.signal.throwIfAborted();
    steps = continuedSteps(steps, result.paused, results);
    search = result.paused.search;
    token = result.paused.token;
  }
}

// In the order the pause's token digests them (lib/server/chat/continuation.ts).
export function continuedSteps(earlier: readonly ContinuationStep[], paused: DevicePause, results: ContinuationStep["results"]): ContinuationStep[] {
  return [...earlier, ...(paused.steps ?? []), { tool_calls: paused.tool_calls, results }];
}

// A failure becomes the result the model is told, so it cannot claim the tool's answer.
async function runDeviceTool(name: string, args: string, input: SendChatInput, options: DeviceToolOptions): Promise<{ content: string; failed: boolean }> {
  try {
    if (name === DEVICE_TIME_TOOL_NAME) return { content: deviceTimeResult(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone), failed: false };
    if (name === RUN_CODE_TOOL_NAME && options.code) {
      const code = runCodeSource(args);
      if (code === null) return { content: 'The call held no program: run_code takes { "code": "<Python>" }.', failed: true };
      // The engine loads with the first run, never with /chat.
      const { runCode } = await import("@/lib/browser/code/run-code");
      const attached = input.file && !input.file.image ? [input.file] : [];
      const files = [...input.documents, ...attached].map((d) => ({ name: d.name, text: d.text }));
      const run = await runCode({ code, files, timeoutMs: options.code.timeoutMs, signal: input.signal });
      return { content: run.content, failed: run.status === "unavailable" };
    }
    return { content: `The tool ${JSON.stringify(name.slice(0, 100))} is not available on this device.`, failed: true };
  } catch (error) {
    if (input.signal.aborted) throw error;
    return { content: "The tool failed on the device. Answer without its result and say so.", failed: true };
  }
}

function withFailureLine(result: SendChatResult): SendChatResult {
  const messages = [...result.messages];
  const last = messages.at(-1);
  if (last?.role === "assistant") messages[messages.length - 1] = { ...last, content: `${last.content}\n\n${DEVICE_TOOL_FAILED_LINE}` };
  return { ...result, messages };
}
