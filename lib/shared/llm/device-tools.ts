// Device tools (docs/issues.md #50): functions the browser runs itself and offers by name; the model's call comes back
// to the browser with a signed continuation token. Dependency-free.
import type { ToolDefinition } from "./tools";

// Without zod, so the browser's turn runner keeps zod out of /chat's first load.
export const MAX_CONTINUATION_STEPS = 100;

export const MAX_STEP_TEXT = 21_000;

/** stdout and stderr of one run_code call, together, at most (docs/issues.md #51 "Sandbox"). */
export const CODE_OUTPUT_MAX_CHARS = 20_000;

const CODE_MAX_CHARS = 20_000;

export const MAX_TOOL_STEPS = 64;

export const DEVICE_TIME_TOOL_NAME = "device_time";

const DEVICE_TIME_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: DEVICE_TIME_TOOL_NAME,
    description: "The user's device's local date, time and time zone (IANA name), e.g. for 'what time is it here?'.",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
};

export const RUN_CODE_TOOL_NAME = "run_code";

export const CODE_DATA_DIR = "/data";

const RUN_CODE_TOOL: ToolDefinition = {
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

export const DEVICE_TOOL_NAMES = [DEVICE_TIME_TOOL_NAME, RUN_CODE_TOOL_NAME] as const;
export type DeviceToolName = (typeof DEVICE_TOOL_NAMES)[number];

const DEVICE_TOOLS: Readonly<Record<string, ToolDefinition>> = { [DEVICE_TIME_TOOL_NAME]: DEVICE_TIME_TOOL, [RUN_CODE_TOOL_NAME]: RUN_CODE_TOOL };

export interface DeviceToolOffer {
  tools?: readonly string[] | null;
}

/** The program of a run_code call's arguments, or null when they hold none or it is longer than CODE_MAX_CHARS. */
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

export function offeredDeviceTools(offer: DeviceToolOffer): ToolDefinition[] {
  const names = [...new Set(offer.tools ?? [])];
  return names.flatMap((n) => (Object.hasOwn(DEVICE_TOOLS, n) ? [DEVICE_TOOLS[n]!] : []));
}

export function deviceTimeResult(now: Date, zone: string): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  return JSON.stringify({ local, zone });
}
