import { describe, expect, it } from "vitest";
import { joinToolCallPieces } from "@/lib/server/llm/openai-protocol";
import { toOpenAiMessages } from "@/lib/shared/llm/prompt";
import type { ToolCall } from "@/lib/shared/llm/tools";

/** OpenAI's streamed `delta.tool_calls` (docs/issues.md #50): pieces of one call share its index, in any interleaving. */
describe("joinToolCallPieces", () => {
  it("joins two calls streamed interleaved by index: id and name first, the arguments' JSON in pieces", () => {
    const calls: ToolCall[] = [];
    joinToolCallPieces(calls, [{ index: 0, id: "call_a", function: { name: "web_search", arguments: "" } }]);
    joinToolCallPieces(calls, [{ index: 1, id: "call_b", function: { name: "web_search", arguments: '{"que' } }]);
    joinToolCallPieces(calls, [{ index: 0, function: { arguments: '{"queries":["a"' } }, { index: 1, function: { arguments: 'ries":["b"]}' } }]);
    joinToolCallPieces(calls, [{ index: 0, function: { arguments: "]}" } }]);
    expect(calls).toEqual([
      { id: "call_a", name: "web_search", arguments: '{"queries":["a"]}' },
      { id: "call_b", name: "web_search", arguments: '{"queries":["b"]}' },
    ]);
  });

  it("names a call whose provider sent no id, so the role tool answer can refer to it", () => {
    const calls: ToolCall[] = [];
    joinToolCallPieces(calls, [{ function: { name: "web_search", arguments: "{}" } }]);
    expect(calls).toEqual([{ id: "call_0", name: "web_search", arguments: "{}" }]);
  });
});

describe("toOpenAiMessages with function calling", () => {
  it("sends an assistant's tool_calls with content null and a tool result with its tool_call_id", () => {
    const call = { id: "call_1", name: "web_search", arguments: '{"queries":["x"]}' };
    expect(
      toOpenAiMessages([
        { role: "user", content: "Q" },
        { role: "assistant", content: "", tool_calls: [call] },
        { role: "tool", tool_call_id: "call_1", content: "<web_results>\n\n</web_results>" },
      ]),
    ).toEqual([
      { role: "user", content: "Q" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "web_search", arguments: call.arguments } }] },
      { role: "tool", tool_call_id: "call_1", content: "<web_results>\n\n</web_results>" },
    ]);
  });
});
