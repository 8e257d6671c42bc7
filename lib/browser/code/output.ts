import { CODE_DATA_DIR, CODE_OUTPUT_MAX_CHARS } from "@/lib/shared/llm/device-tools";

// What one run_code call gives back. No browser API, so Node's tests run it as it is.

export type RunStatus = "ok" | "error" | "timeout" | "unavailable";

/** stdout and stderr in the order written, at most `max` characters. */
export class OutputBuffer {
  private parts: string[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly max: number = CODE_OUTPUT_MAX_CHARS) {}

  /** @returns the part kept ("" once full), for a caller to pass on */
  append(text: string): string {
    if (text === "") return "";
    const room = this.max - this.size;
    if (room <= 0) {
      this.truncated = true;
      return "";
    }
    const kept = text.length > room ? text.slice(0, room) : text;
    if (kept.length < text.length) this.truncated = true;
    this.parts.push(kept);
    this.size += kept.length;
    return kept;
  }

  text(): string {
    return this.parts.join("");
  }
}

export function missingModuleLine(name: string): string {
  return `The module "${name}" is not available here: code on this device has Python's standard library only, and packages cannot be installed.`;
}

/** The top-level module a ModuleNotFoundError's message names, or null. */
export function missingModule(message: string): string | null {
  const name = /No module named '([^']+)'/.exec(message)?.[1];
  return name ? name.split(".")[0]! : null;
}

/** A Python traceback without Pyodide's own `_pyodide` frames. */
export function cleanTraceback(message: string): string {
  const lines = message.split("\n");
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (/^ {2}File "[^"]*\/_pyodide\//.test(line)) {
      skipping = true;
      continue;
    }
    if (skipping && /^ {4}/.test(line)) continue;
    skipping = false;
    out.push(line);
  }
  return out.join("\n");
}

// In words the model and the user read alike.
function statusLine(status: RunStatus, timeoutMs: number): string {
  switch (status) {
    case "ok":
      return "The code ran on the user's device.";
    case "error":
      return "The code raised an error on the user's device (the traceback is below).";
    case "timeout":
      return `The code was stopped after ${formatSeconds(timeoutMs)}, the time limit for code on the user's device.`;
    case "unavailable":
      return "Python could not start on the user's device, so the code did not run.";
  }
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** The result the model gets: a status line, then the output; it fits TOOL_RESULT_MAX_CHARS. */
export function codeResult(run: { status: RunStatus; output: string; truncated: boolean; timeoutMs: number }): string {
  const lines = [statusLine(run.status, run.timeoutMs)];
  if (run.truncated) lines.push(`Its output was cut at ${CODE_OUTPUT_MAX_CHARS.toLocaleString("en-US")} characters.`);
  const output = run.output.slice(0, CODE_OUTPUT_MAX_CHARS);
  return `${lines.join(" ")}\n\nOutput:\n${output === "" ? "(no output)" : output}`;
}

/** Null for text codeResult did not make. */
export function resultStatus(result: string): RunStatus | null {
  for (const status of ["ok", "error", "timeout", "unavailable"] as const) {
    const line = statusLine(status, 0);
    const prefix = status === "timeout" ? line.slice(0, line.indexOf(" after ")) : line;
    if (result.startsWith(prefix)) return status;
  }
  return null;
}

/** The name as the model reads it in its `<document name>`, without folders, so nothing writes outside CODE_DATA_DIR. */
export function dataPath(name: string): string {
  const base = name.replace(/[\u0000-\u001f\u007f"<>]/g, "").replace(/[/\\]/g, "_").trim();
  return `${CODE_DATA_DIR}/${base === "" || base === "." || base === ".." ? "file" : base}`;
}
