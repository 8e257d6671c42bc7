import { describe, expect, it } from "vitest";
import { scriptedToolCall } from "@/lib/shared/llm/tools";

/** docs/issues.md #50: the one deterministic tool rule calls device_time for a question about the device's time, when offered. */
const user = (content: string) => [{ role: "user", content }];

describe("scriptedToolCall and device_time", () => {
  it("calls device_time for the device's time when it is offered, else keeps the web-search rule", () => {
    expect(scriptedToolCall(user("What time is it on my device?"), ["web_search", "device_time"])).toEqual({ name: "device_time", arguments: "{}" });
    expect(scriptedToolCall(user("what's the time here"), ["device_time"])).toEqual({ name: "device_time", arguments: "{}" });
    expect(scriptedToolCall(user("What time is it on my device?"), ["web_search"])).toEqual({ name: "web_search", arguments: JSON.stringify({ queries: ["What time is it on my device?"] }) });
    expect(scriptedToolCall(user("Population of France in 2020"), ["web_search", "device_time"])?.name).toBe("web_search");
    expect(scriptedToolCall(user("Population of France in 2020"), ["device_time"])).toBeNull();
  });

  it("answers once the tool's result follows the last user message", () => {
    const answered = [...user("What time is it on my device?"), { role: "assistant", content: "" }, { role: "tool", content: "{}" }];
    expect(scriptedToolCall(answered, ["device_time"])).toBeNull();
  });
});
