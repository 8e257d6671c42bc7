import "client-only";
import { codeResult, OutputBuffer, type RunStatus } from "./output";
import type { CodeFile, RunRequest, WorkerMessage } from "./protocol";

/**
 * The page's side of "Run code on this device" (docs/issues.md #51): one Python worker (./code.worker.ts), started
 * on the first run and kept warm for the next ones, given each program with the chat's files. The time limit runs
 * from the program's start (loading Python is not counted, but has its own bound); past it, or on Stop, the worker
 * is terminated, so the page never waits on the program, and the next run starts a new one. Loaded by the turn
 * runner on the first run_code call only, never with /chat.
 */

/** How long Python may take to load on this device (download and compile, on a slow phone too). */
const LOAD_TIMEOUT_MS = 120_000;

/** A run's end: its status and the tool result the model gets (./output.ts codeResult). */
export interface CodeRunResult {
  status: RunStatus;
  content: string;
}

let worker: Worker | null = null;
let ready: Promise<Worker> | null = null;
let nextId = 1;

function stop(): void {
  worker?.terminate();
  worker = null;
  ready = null;
}

/** The warm worker, or a new one once it said "ready". @throws Error when it cannot start */
function started(): Promise<Worker> {
  if (ready) return ready;
  // A classic worker: Turbopack's worker bootstrap loads its chunks with importScripts (lib/browser/pdf/index.ts).
  const w = new Worker(new URL("./code.worker.ts", import.meta.url), { name: "hush-code" });
  worker = w;
  ready = new Promise<Worker>((resolve, reject) => {
    const onMessage = (event: MessageEvent<WorkerMessage>) => {
      if (event.data?.hush !== "code" || event.data.kind !== "ready") return;
      w.removeEventListener("message", onMessage);
      resolve(w);
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", (event) => {
      event.preventDefault();
      reject(new Error("The Python worker did not start."));
    }, { once: true });
  });
  ready.catch(stop);
  return ready;
}

/**
 * Run `code` with `files` at /data in the Python worker.
 * @param input.timeoutMs CODE_TIMEOUT_MS: the program's time from its start
 * @param input.onStarted the program starts (Python has loaded)
 * @returns its status and tool result; never throws for the program's own failure, a time-out or a Python that
 *   could not load (each is the result)
 * @throws DOMException "AbortError" when `signal` aborts (the worker is terminated)
 */
export async function runCode(input: { code: string; files: CodeFile[]; timeoutMs: number; signal: AbortSignal; onStarted?: () => void }): Promise<CodeRunResult> {
  input.signal.throwIfAborted();
  const output = new OutputBuffer();
  const finish = (status: RunStatus, truncated = output.truncated): CodeRunResult => ({
    status,
    content: codeResult({ status, output: output.text(), truncated, timeoutMs: input.timeoutMs }),
  });
  let w: Worker;
  try {
    w = await started();
  } catch {
    return finish("unavailable");
  }
  input.signal.throwIfAborted();
  const id = nextId++;
  return new Promise<CodeRunResult>((resolve, reject) => {
    let timer = setTimeout(() => end(() => resolve(finish("unavailable")), true), LOAD_TIMEOUT_MS);
    const end = (settle: () => void, terminate: boolean) => {
      clearTimeout(timer);
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      input.signal.removeEventListener("abort", onAbort);
      if (terminate && worker === w) stop();
      settle();
    };
    const onAbort = () => end(() => reject(input.signal.reason ?? new DOMException("Stopped", "AbortError")), true);
    const onError = (event: ErrorEvent) => {
      event.preventDefault();
      end(() => resolve(finish(output.text() ? "error" : "unavailable")), true);
    };
    const onMessage = (event: MessageEvent<WorkerMessage>) => {
      const m = event.data;
      if (m?.hush !== "code" || m.kind === "ready" || m.id !== id) return;
      if (m.kind === "started") {
        clearTimeout(timer);
        timer = setTimeout(() => end(() => resolve(finish("timeout")), true), input.timeoutMs);
        input.onStarted?.();
      } else if (m.kind === "output" && typeof m.text === "string") {
        output.append(m.text);
      } else if (m.kind === "unavailable") {
        end(() => resolve(finish("unavailable")), true);
      } else if (m.kind === "done") {
        // The worker's own copy is whole (the messages are the same text, sent as it came).
        const whole = new OutputBuffer();
        whole.append(String(m.output));
        end(() => resolve({ status: m.status === "ok" ? "ok" : "error", content: codeResult({ status: m.status === "ok" ? "ok" : "error", output: whole.text(), truncated: Boolean(m.truncated) || whole.truncated, timeoutMs: input.timeoutMs }) }), false);
      }
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    input.signal.addEventListener("abort", onAbort, { once: true });
    const request: RunRequest = { hush: "code", id, code: input.code, files: input.files };
    w.postMessage(request);
  });
}
