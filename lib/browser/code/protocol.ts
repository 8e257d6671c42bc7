import type { RunStatus } from "./output";

/**
 * Messages between the page (./run-code.ts) and the Python worker (./code.worker.ts), each tagged `hush: "code"`
 * and, but for "ready", with the run's id. The page starts the time limit at "started": loading Python is not
 * the program's time.
 */

/** A file attached to the chat, written to /data/<name> before the program runs. */
export interface CodeFile {
  name: string;
  text: string;
}

/** Page to worker: run `code` with `files`. */
export interface RunRequest {
  hush: "code";
  id: number;
  code: string;
  files: CodeFile[];
}

/** Worker to page. */
export type WorkerMessage =
  | { hush: "code"; kind: "ready" }
  /** Python could not load (a refused file, no WebAssembly): nothing ran. */
  | { hush: "code"; kind: "unavailable"; id: number; reason: string }
  /** The program starts now: the time limit runs from here. */
  | { hush: "code"; kind: "started"; id: number }
  /** Output as it is written (stdout and stderr in order), until the cap. */
  | { hush: "code"; kind: "output"; id: number; text: string }
  /** The program ended (status "ok" or "error"), with its whole capped output. */
  | { hush: "code"; kind: "done"; id: number; status: Extract<RunStatus, "ok" | "error">; output: string; truncated: boolean };
