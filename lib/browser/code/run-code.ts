import "client-only";
import { codeResult, OutputBuffer, type RunStatus } from "./output";
import type { CodeFile, RunRequest, WorkerMessage } from "./protocol";

// One warm Python worker, terminated past the time limit or on Stop, so the page never waits on the program.

// Download and compile, on a slow phone too.
const LOAD_TIMEOUT_MS = 120_000;

/** `content`: the tool result the model gets. */
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

function started(): Promise<Worker> {
  if (ready) return ready;
  // A classic worker: Turbopack's worker bootstrap loads its chunks with importScripts.
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
 * `timeoutMs` runs from the program's start, after Python has loaded. A failure, a time-out or a Python that could
 * not load is the result, never thrown. @throws DOMException "AbortError" when `signal` aborts
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
        // The worker's own copy is whole.
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
