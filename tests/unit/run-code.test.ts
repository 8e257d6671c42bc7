import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanTraceback, codeResult, dataPath, missingModule, missingModuleLine, OutputBuffer, resultStatus } from "@/lib/browser/code/output";
import { lockNetwork, NETWORK_APIS, NO_NETWORK_MESSAGE } from "@/lib/browser/code/sandbox";
import { PYODIDE_FILES, PYODIDE_VERSION } from "@/lib/shared/code/pyodide-files";
import { TOOL_RESULT_MAX_CHARS } from "@/lib/shared/chat/turn-schema";
import { CODE_OUTPUT_MAX_CHARS, offeredDeviceTools, RUN_CODE_TOOL_NAME, runCodeSource } from "@/lib/shared/llm/device-tools";
import { scriptedToolCall } from "@/lib/shared/llm/tools";
import { sri384 } from "@/lib/server/security/sri";
import { parseConfig } from "@/lib/server/config";

/** docs/issues.md #51 "Run code on this device": the pieces that run the same in Node as in the browser's worker. */

describe("run_code's output and result", () => {
  it("keeps stdout and stderr in order up to the cap, and says when more was written", () => {
    const out = new OutputBuffer(10);
    expect(out.append("hello ")).toBe("hello ");
    expect(out.append("world!")).toBe("worl");
    expect(out.append("more")).toBe("");
    expect(out.text()).toBe("hello worl");
    expect(out.truncated).toBe(true);
    const whole = new OutputBuffer(10);
    whole.append("0123456789");
    expect(whole.truncated).toBe(false);
  });

  it("a result starts with how the run ended and fits a tool result even at the cap", () => {
    expect(codeResult({ status: "ok", output: "4.583\n", truncated: false, timeoutMs: 10_000 })).toBe("The code ran on the user's device.\n\nOutput:\n4.583\n");
    expect(codeResult({ status: "ok", output: "", truncated: false, timeoutMs: 10_000 })).toMatch(/Output:\n\(no output\)$/);
    const timeout = codeResult({ status: "timeout", output: "x".repeat(CODE_OUTPUT_MAX_CHARS * 2), truncated: true, timeoutMs: 10_000 });
    expect(timeout).toMatch(/^The code was stopped after 10 s, the time limit for code on the user's device\. Its output was cut at 20,000 characters\./);
    expect(timeout.length).toBeLessThanOrEqual(TOOL_RESULT_MAX_CHARS);
    for (const status of ["ok", "error", "timeout", "unavailable"] as const) {
      expect(resultStatus(codeResult({ status, output: "", truncated: false, timeoutMs: 2500 }))).toBe(status);
    }
    expect(resultStatus('{"local":"2026-12-03T10:00:00"}')).toBeNull();
  });

  it("names a missing module plainly, and keeps the user's frames of a traceback only", () => {
    expect(missingModule("ModuleNotFoundError: No module named 'numpy.linalg'")).toBe("numpy");
    expect(missingModule("ValueError: x")).toBeNull();
    expect(missingModuleLine("numpy")).toContain("standard library only");
    const traceback = [
      "Traceback (most recent call last):",
      '  File "/lib/python314.zip/_pyodide/_base.py", line 597, in eval_code_async',
      "    await CodeRunner(",
      '  File "<exec>", line 1, in <module>',
      "ZeroDivisionError: division by zero",
    ].join("\n");
    expect(cleanTraceback(traceback)).toBe('Traceback (most recent call last):\n  File "<exec>", line 1, in <module>\nZeroDivisionError: division by zero');
  });

  it("an attached file is read at /data/<name>, and no name writes outside /data", () => {
    expect(dataPath("data.csv")).toBe("/data/data.csv");
    expect(dataPath("../../etc/passwd")).toBe("/data/.._.._etc_passwd");
    expect(dataPath("..")).toBe("/data/file");
    expect(dataPath('a"<b>.csv')).toBe("/data/ab.csv");
  });
});

describe("run_code's tool", () => {
  it("takes one program; a call without one is not run", () => {
    expect(runCodeSource(JSON.stringify({ code: "print(1)" }))).toBe("print(1)");
    for (const bad of ["", "{}", '{"code":"  "}', '{"code":3}', "not json", JSON.stringify({ code: "x".repeat(20_001) })]) expect(runCodeSource(bad)).toBeNull();
    expect(offeredDeviceTools({ tools: [RUN_CODE_TOOL_NAME] }).map((t) => t.function.name)).toEqual([RUN_CODE_TOOL_NAME]);
  });

  it("CODE_EXECUTION=off turns it off, CODE_TIMEOUT_MS is its limit, and CHAT_DEVICE_TOOLS cannot offer it with every turn", () => {
    expect(parseConfig({ NODE_ENV: "test" }).codeExecution).toEqual({ timeoutMs: 10_000 });
    expect(parseConfig({ NODE_ENV: "test", CODE_TIMEOUT_MS: "2500" }).codeExecution).toEqual({ timeoutMs: 2500 });
    expect(parseConfig({ NODE_ENV: "test", CODE_EXECUTION: "off" }).codeExecution).toBeNull();
    expect(() => parseConfig({ NODE_ENV: "test", CHAT_DEVICE_TOOLS: "run_code" })).toThrow(/CHAT_DEVICE_TOOLS: unknown tool run_code/);
  });
});

describe("the worker's network lock", () => {
  it("replaces every network API on the scope and its prototypes, for good", () => {
    class Base {
      fetch() {
        return "reached";
      }
    }
    const scope = Object.assign(new Base(), { WebSocket: class {}, importScripts: () => "loaded", postMessage: () => "posted", keep: () => "kept" });
    const locked = lockNetwork(scope, ["postMessage"]);
    expect(locked.sort()).toEqual(["WebSocket", "fetch", "importScripts", "postMessage"]);
    expect(() => scope.fetch()).toThrow(NO_NETWORK_MESSAGE);
    expect(() => Base.prototype.fetch.call(scope)).toThrow(NO_NETWORK_MESSAGE);
    expect(() => new scope.WebSocket()).toThrow(NO_NETWORK_MESSAGE);
    expect(() => scope.importScripts()).toThrow(NO_NETWORK_MESSAGE);
    expect(scope.keep()).toBe("kept");
    expect(() => Object.defineProperty(scope, "fetch", { value: () => "back" })).toThrow(TypeError);
    expect(() => Object.defineProperty(Base.prototype, "fetch", { value: () => "back" })).toThrow(TypeError);
    expect(NETWORK_APIS).toEqual(expect.arrayContaining(["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "Worker"]));
  });
});

describe("Pyodide's files", () => {
  it("the listed digests are those of the installed package's files", () => {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve("pyodide/package.json"));
    expect(JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version).toBe(PYODIDE_VERSION);
    for (const [name, digest] of Object.entries(PYODIDE_FILES)) expect(sri384(readFileSync(path.join(dir, name))), name).toBe(digest);
  });
});

describe("the scripted rule and run_code", () => {
  const user = (content: string) => [{ role: "user", content }];
  const csv = '<document name="scores.csv">\na,b\n1,1.5\n2,2.25\n3,10\n</document>\n\n';
  const code = (content: string, offered = ["web_search", RUN_CODE_TOOL_NAME]) => {
    const call = scriptedToolCall(user(content), offered);
    return call?.name === RUN_CODE_TOOL_NAME ? (JSON.parse(call.arguments) as { code: string }).code : call;
  };

  it("a column statistic of the attached CSV, a fenced program as written, compute <arithmetic>", () => {
    expect(code(`${csv}what is the mean of column b?`)).toBe(
      'import csv, math, statistics\nwith open("/data/scores.csv", newline="") as f:\n    values = [float(row["b"]) for row in csv.DictReader(f, delimiter=",")]\nprint(statistics.mean(values))',
    );
    expect(code(`${csv}Compute the sum of column a`)).toContain("print(math.fsum(values))");
    expect(code("Run this:\n```python\nwhile True:\n    pass\n```")).toBe("while True:\n    pass");
    expect(code("compute 2**100 / 7")).toBe("print(2**100 / 7)");
  });

  it("not offered, or nothing to compute: the rule is as before", () => {
    expect(code(`${csv}what is the mean of column b?`, ["web_search"])).toMatchObject({ name: "web_search" });
    expect(code("what is the mean of column b?", [RUN_CODE_TOOL_NAME])).toBeNull();
    expect(code("compute the meaning of life", [RUN_CODE_TOOL_NAME])).toBeNull();
    const answered = [...user("compute 1+1"), { role: "assistant", content: "" }, { role: "tool", content: "The code ran" }];
    expect(scriptedToolCall(answered, [RUN_CODE_TOOL_NAME])).toBeNull();
  });
});
