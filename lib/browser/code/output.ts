import { CODE_DATA_DIR, CODE_OUTPUT_MAX_CHARS } from "@/lib/shared/llm/device-tools";

/**
 * What one run_code call gives back (docs/issues.md #51 "Sandbox"): its output, capped, and the tool result the
 * model gets, plain text with a status line first. Used by the Python worker (./code.worker.ts) and the page's
 * runner (./run-code.ts); no browser API, so Node's tests run it as it is.
 */

/** How a run ended: it finished, raised, ran past the time limit, or Python could not start. */
export type RunStatus = "ok" | "error" | "timeout" | "unavailable";

/** The output of a run as the page holds it: stdout and stderr in the order written, at most `max` characters. */
export class OutputBuffer {
  private parts: string[] = [];
  private size = 0;
  /** More was written than was kept. */
  truncated = false;

  constructor(private readonly max: number = CODE_OUTPUT_MAX_CHARS) {}

  /** Keep what fits of `text`; returns the part kept ("" once full), so a caller can pass it on. */
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

  /** Everything kept, in order. */
  text(): string {
    return this.parts.join("");
  }
}

/** The line added under a failed import of a module Pyodide's standard library does not have. */
export function missingModuleLine(name: string): string {
  return `The module "${name}" is not available here: code on this device has Python's standard library only, and packages cannot be installed.`;
}

/**
 * The module a ModuleNotFoundError's message names ("No module named 'numpy'"), or null. Only the top-level name:
 * "No module named 'numpy.linalg'" is numpy.
 */
export function missingModule(message: string): string | null {
  const name = /No module named '([^']+)'/.exec(message)?.[1];
  return name ? name.split(".")[0]! : null;
}

/**
 * A Python traceback without Pyodide's own frames (its `_pyodide` modules that ran the program): the user's frames
 * and the error line are what is left.
 */
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

/** The first line of a result: how the run ended, in words the model and the user read alike. */
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

/**
 * The run_code result the model gets (and the answer's step shows): the status line, a line when output was cut,
 * then "Output:" and the output ("(no output)" when there was none). At most CODE_OUTPUT_MAX_CHARS of output plus
 * a few hundred characters, so it fits lib/shared/chat/turn-schema.ts TOOL_RESULT_MAX_CHARS.
 */
export function codeResult(run: { status: RunStatus; output: string; truncated: boolean; timeoutMs: number }): string {
  const lines = [statusLine(run.status, run.timeoutMs)];
  if (run.truncated) lines.push(`Its output was cut at ${CODE_OUTPUT_MAX_CHARS.toLocaleString("en-US")} characters.`);
  const output = run.output.slice(0, CODE_OUTPUT_MAX_CHARS);
  return `${lines.join(" ")}\n\nOutput:\n${output === "" ? "(no output)" : output}`;
}

/** The status a result was made with (codeResult's first line), or null for text it did not make. */
export function resultStatus(result: string): RunStatus | null {
  for (const status of ["ok", "error", "timeout", "unavailable"] as const) {
    const line = statusLine(status, 0);
    const prefix = status === "timeout" ? line.slice(0, line.indexOf(" after ")) : line;
    if (result.startsWith(prefix)) return status;
  }
  return null;
}

/**
 * A file attached to the chat as Python sees it: `/data/<name>`, its name as the model reads it in its
 * `<document name>` (control characters, `"`, `<` and `>` taken out: lib/shared/llm/prompt.ts) and without folders
 * (`/` and `\\` become `_`; "", "." and ".." become "file"), so no name writes outside CODE_DATA_DIR.
 */
export function dataPath(name: string): string {
  const base = name.replace(/[\u0000-\u001f\u007f"<>]/g, "").replace(/[/\\]/g, "_").trim();
  return `${CODE_DATA_DIR}/${base === "" || base === "." || base === ".." ? "file" : base}`;
}
