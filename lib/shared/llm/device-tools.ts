/**
 * Device tools (docs/issues.md #50, the device-tool round trip): functions the browser runs itself and offers by
 * name (the chat body's `tools`, lib/shared/chat/turn-schema.ts). The model's call goes back to the browser with a
 * signed continuation token
 * (lib/server/chat/continuation.ts); the browser sends the results and the token to continue the turn.
 * Browser-safe and dependency-free.
 */
import type { ToolDefinition } from "./tools";

/**
 * Paused steps a continuation may echo back at most (lib/shared/chat/turn-schema.ts); here, without zod, so the
 * browser's turn runner keeps zod out of /chat's first load (e2e/first-load.spec.ts).
 */
export const MAX_CONTINUATION_STEPS = 16;

/** Longest tool arguments or result an answer's step keeps, in characters (lib/shared/chat/steps.ts; zod-free, as above). */
export const MAX_STEP_TEXT = 20_000;

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

/** Every device tool's name (the chat body's `tools` enum). */
export const DEVICE_TOOL_NAMES = [DEVICE_TIME_TOOL_NAME] as const;
export type DeviceToolName = (typeof DEVICE_TOOL_NAMES)[number];

/** Every device tool a client may offer, by name. */
export const DEVICE_TOOLS: Readonly<Record<string, ToolDefinition>> = { [DEVICE_TIME_TOOL_NAME]: DEVICE_TIME_TOOL };

/** A device-tool offer as the chat body holds it: names only. */
export interface DeviceToolOffer {
  tools?: readonly string[] | null;
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
