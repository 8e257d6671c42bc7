/**
 * Device tools (docs/issues.md #50, the device-tool round trip): functions the browser runs itself and offers by
 * name (the chat body's `tools`, lib/shared/chat/turn-schema.ts). The model's call goes back to the browser with a
 * signed continuation token
 * (lib/server/chat/continuation.ts); the browser sends the results and the token to continue the turn.
 * Browser-safe and dependency-free.
 */
import type { ToolDefinition } from "./tools";

/**
 * Steps a continuation may echo back at most (lib/shared/chat/turn-schema.ts): two per model call (its server-run
 * calls, then its device calls) within CHAT_MAX_TOOL_STEPS's largest setting, 50. Here, without zod, so the
 * browser's turn runner keeps zod out of /chat's first load (e2e/first-load.spec.ts).
 */
export const MAX_CONTINUATION_STEPS = 100;

/**
 * Longest tool arguments or result an answer's step keeps, in characters (lib/shared/chat/steps.ts; zod-free, as
 * above): a run_code result's capped output (CODE_OUTPUT_MAX_CHARS) and its status lines fit.
 */
export const MAX_STEP_TEXT = 21_000;

/** stdout and stderr of one run_code call, together, at most (docs/issues.md #51 "Sandbox"). */
export const CODE_OUTPUT_MAX_CHARS = 20_000;

/** Longest program run_code takes, in characters (the model's `code` argument). */
export const CODE_MAX_CHARS = 20_000;

/** Most tool steps one answer keeps: every call of every paused step (lib/shared/chat/steps.ts). */
export const MAX_TOOL_STEPS = 64;

/** The built-in test tool's name: the device's local date, time and time zone. */
export const DEVICE_TIME_TOOL_NAME = "device_time";

/** The built-in test tool: nothing private, the same answer a clock on the page shows. */
export const DEVICE_TIME_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: DEVICE_TIME_TOOL_NAME,
    description: "The user's device's local date, time and time zone (IANA name), e.g. for 'what time is it here?'.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
};

/** "Run code on this device" (docs/issues.md #51): Python in the browser, offered while the composer's "Run code" is on. */
export const RUN_CODE_TOOL_NAME = "run_code";

/** The folder of Pyodide's file system where the chat's attached files are (docs/issues.md #51 "Files"). */
export const CODE_DATA_DIR = "/data";

/** run_code as the model is offered it: one Python program, run on the user's own device. */
export const RUN_CODE_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: RUN_CODE_TOOL_NAME,
    description:
      "Run a Python 3 program on the user's own device and get back what it prints (stdout and stderr). Use it for arithmetic, " +
      `statistics and data work instead of guessing. The files attached to this chat are readable at ${CODE_DATA_DIR}/<file name> ` +
      "(CSV, JSON, text, Markdown). Only the standard library is there: no numpy or pandas, no package installs, no network. " +
      "Print the results you need; each call runs in a fresh namespace, within a time limit.",
    parameters: {
      type: "object",
      properties: { code: { type: "string", description: "The Python program to run." } },
      required: ["code"],
      additionalProperties: false,
    },
  },
};

/** Every device tool's name (the chat body's `tools` enum). */
export const DEVICE_TOOL_NAMES = [DEVICE_TIME_TOOL_NAME, RUN_CODE_TOOL_NAME] as const;
export type DeviceToolName = (typeof DEVICE_TOOL_NAMES)[number];

/** Every device tool a client may offer, by name. */
export const DEVICE_TOOLS: Readonly<Record<string, ToolDefinition>> = { [DEVICE_TIME_TOOL_NAME]: DEVICE_TIME_TOOL, [RUN_CODE_TOOL_NAME]: RUN_CODE_TOOL };

/** A device-tool offer as the chat body holds it: names only. */
export interface DeviceToolOffer {
  tools?: readonly string[] | null;
}

/**
 * The program of a run_code call's arguments (`{ "code": "..." }`), or null when they hold none (not JSON, no
 * string `code`, only whitespace, or longer than CODE_MAX_CHARS).
 */
export function runCodeSource(args: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return null;
  }
  const code = (parsed as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.trim() !== "" && code.length <= CODE_MAX_CHARS ? code : null;
}

/** Whether `name` is a device tool (run by the browser, never by a server or an enclave). */
export function isDeviceTool(name: string): name is DeviceToolName {
  return Object.hasOwn(DEVICE_TOOLS, name);
}

/** The definitions of the offered names that are device tools, in the order offered, each once; unknown names dropped. */
export function offeredDeviceTools(offer: DeviceToolOffer): ToolDefinition[] {
  const names = [...new Set(offer.tools ?? [])];
  return names.flatMap((n) => (Object.hasOwn(DEVICE_TOOLS, n) ? [DEVICE_TOOLS[n]!] : []));
}

/** The built-in tool's result as the browser sends it back: `{ "local": "2026-12-02T07:05:00", "zone": "Europe/Paris" }`. */
export function deviceTimeResult(now: Date, zone: string): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return JSON.stringify({ local, zone });
}
