import type { RunStatus } from "./output";

// Messages between the page and the Python worker.

export interface CodeFile {
  name: string;
  text: string;
}

export interface RunRequest {
  hush: "code";
  id: number;
  code: string;
  files: CodeFile[];
}

export type WorkerMessage =
  | { hush: "code"; kind: "ready" }
  | { hush: "code"; kind: "unavailable"; id: number; reason: string }
  /** The time limit runs from here: loading Python is not the program's time. */
  | { hush: "code"; kind: "started"; id: number }
  | { hush: "code"; kind: "output"; id: number; text: string }
  | { hush: "code"; kind: "done"; id: number; status: Extract<RunStatus, "ok" | "error">; output: string; truncated: boolean };
