import { describe, expect, it } from "vitest";
import { continuedSteps, DEVICE_TOOL_FAILED_LINE, runTurn } from "@/lib/browser/chat/turn-runner";
import { pausedResult, type SendChatInput, type SendChatResult } from "@/lib/browser/chat/send-turn";
import { DEVICE_TIME_TOOL_NAME, RUN_CODE_TOOL_NAME } from "@/lib/shared/llm/device-tools";

/** docs/issues.md #50: the browser's one turn runner, against a scripted `send` (either path's shape). */
const call = (name: string, id = "call_1") => ({ id, type: "function" as const, function: { name, arguments: "{}" } });

function input(signal = new AbortController().signal, lines: (string | null)[] = []): SendChatInput {
  return { endpoint: "chatVisitor", messages: [{ role: "user", content: "What time is it on my device?" }], model: "m", file: null, documents: [], chatId: null, saveChat: false, signal, onDelta: () => undefined, onDeviceTool: (l) => lines.push(l), tools: [DEVICE_TIME_TOOL_NAME] };
}

const answer = (i: SendChatInput, content: string): SendChatResult => ({
  messages: [...i.messages.map(({ role, content: c }) => ({ role, content: c })), { role: "assistant", content }],
  chat_id: null,
  context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false },
});

describe("runTurn", () => {
  it("offers the device's tools, runs a paused step here and continues with the token and every step so far", async () => {
    const seen: SendChatInput[] = [];
    const lines: (string | null)[] = [];
    const result = await runTurn(async (i) => {
      seen.push(i);
      if (seen.length === 1) return pausedResult(i, { tool_calls: [call(DEVICE_TIME_TOOL_NAME)], token: "t1" });
      return answer(i, "It is morning.");
    }, input(undefined, lines));
    expect(seen[0]!.tools).toEqual([DEVICE_TIME_TOOL_NAME]);
    expect(seen[0]!.continuation).toBeNull();
    expect(seen[1]!.continuation!.token).toBe("t1");
    expect(seen[1]!.continuation!.steps[0]!.results[0]).toMatchObject({ role: "tool", tool_call_id: "call_1", content: expect.stringMatching(/^\{"local":/) });
    expect(lines).toEqual(["Checking this device's time…", null]);
    expect(result.messages.at(-1)!.content).toBe("It is morning.");
    // The step comes back with the answer: what it sent and what came back (shown and saved with it).
    expect(result.tools).toEqual([{ name: DEVICE_TIME_TOOL_NAME, arguments: "{}", result: seen[1]!.continuation!.steps[0]!.results[0]!.content, ok: true }]);
  });

  it("echoes what the server ran before each pause, then the device's step, and the last pause's record (docs/issues.md #51)", async () => {
    const searched = { tool_calls: [call("web_search", "call_s")], results: [{ role: "tool" as const, tool_call_id: "call_s", content: "<web_results>…</web_results>" }] };
    const read = { tool_calls: [call("read_page", "call_r")], results: [{ role: "tool" as const, tool_call_id: "call_r", content: "<web_page>…</web_page>" }] };
    const record = (queries: string[]) => ({ via: "searxng" as const, engine: "searx", queries, sources: [], status: "ok" as const });
    const seen: SendChatInput[] = [];
    await runTurn(async (i) => {
      seen.push(i);
      if (seen.length === 1) return pausedResult(i, { tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_1")], token: "t1", steps: [searched], search: record(["a"]) });
      if (seen.length === 2) return pausedResult(i, { tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_2")], token: "t2", steps: [read], search: record(["a", "b"]) });
      return answer(i, "Done.");
    }, input());
    expect(seen[1]!.continuation!.steps.map((s) => s.tool_calls[0]!.id)).toEqual(["call_s", "call_1"]);
    expect(seen[1]!.continuation!.search!.queries).toEqual(["a"]);
    expect(seen[2]!.continuation!.steps.map((s) => s.tool_calls[0]!.id)).toEqual(["call_s", "call_1", "call_r", "call_2"]);
    expect(seen[2]!.continuation!.steps[2]).toEqual(read);
    expect(seen[2]!.continuation!.search!.queries).toEqual(["a", "b"]);
  });

  it("continuedSteps: the earlier steps, the pause's server steps, then its device calls with their results; a pause without steps adds one", () => {
    const device = [{ role: "tool" as const, tool_call_id: "call_2", content: "r" }];
    const earlier = [{ tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_0")], results: [{ role: "tool" as const, tool_call_id: "call_0", content: "r0" }] }];
    const server = { tool_calls: [call("web_search", "call_1")], results: [{ role: "tool" as const, tool_call_id: "call_1", content: "w" }] };
    expect(continuedSteps(earlier, { tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_2")], token: "t", steps: [server] }, device)).toEqual([
      ...earlier,
      server,
      { tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_2")], results: device },
    ]);
    expect(continuedSteps([], { tool_calls: [call(DEVICE_TIME_TOOL_NAME, "call_2")], token: "t" }, device)).toHaveLength(1);
  });

  it("offers no device tool unless the page's configuration names some (CHAT_DEVICE_TOOLS)", async () => {
    const seen: SendChatInput[] = [];
    const result = await runTurn(async (i) => (seen.push(i), answer(i, "Hi.")), { ...input(), tools: undefined });
    expect(seen[0]!.tools).toEqual([]);
    expect(result).not.toHaveProperty("tools");
  });

  it("a tool that is not on this device is told to the model and said under the answer", async () => {
    let n = 0;
    const result = await runTurn(async (i) => (++n === 1 ? pausedResult(i, { tool_calls: [call("camera")], token: "t" }) : answer(i, "Sorry.")), input());
    expect(result.messages.at(-1)!.content).toBe(`Sorry.\n\n${DEVICE_TOOL_FAILED_LINE}`);
    expect(result.tools).toEqual([{ name: "camera", arguments: "{}", result: 'The tool "camera" is not available on this device.', ok: false }]);
  });

  it("run_code (docs/issues.md #51): not run while running code is off, nor for a call without a program", async () => {
    const runCall = (args: string) => ({ id: "call_1", type: "function" as const, function: { name: RUN_CODE_TOOL_NAME, arguments: args } });
    const turn = async (args: string, options: Parameters<typeof runTurn>[2]) => {
      const lines: (string | null)[] = [];
      let n = 0;
      const result = await runTurn(async (i) => (++n === 1 ? pausedResult(i, { tool_calls: [runCall(args)], token: "t" }) : answer(i, "Done.")), input(undefined, lines), options);
      return { result, lines };
    };
    const off = await turn('{"code":"print(1)"}', {});
    expect(off.result.tools).toEqual([{ name: RUN_CODE_TOOL_NAME, arguments: '{"code":"print(1)"}', result: 'The tool "run_code" is not available on this device.', ok: false }]);
    expect(off.lines).toEqual(["Running code on this device…", null]);
    const empty = await turn('{"code":""}', { code: { timeoutMs: 10_000 } });
    expect(empty.result.tools![0]).toMatchObject({ ok: false, result: expect.stringContaining("held no program") });
    expect(empty.result.messages.at(-1)!.content).toBe(`Done.\n\n${DEVICE_TOOL_FAILED_LINE}`);
  });

  it("Stop during a paused step ends the whole turn: nothing more is sent", async () => {
    const stop = new AbortController();
    let sends = 0;
    const run = runTurn(async (i) => {
      sends += 1;
      stop.abort(new DOMException("Stopped", "AbortError"));
      return pausedResult(i, { tool_calls: [call(DEVICE_TIME_TOOL_NAME)], token: "t" });
    }, input(stop.signal));
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    expect(sends).toBe(1);
  });
});
