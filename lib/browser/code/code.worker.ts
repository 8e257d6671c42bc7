/// <reference lib="webworker" />
// Pyodide, loaded from this origin with the integrity lib/shared/code/pyodide-files.ts lists, then cut off from every
// network API before any program runs. Only the standard library; nothing is logged.
import type { PyodideAPI } from "pyodide";
import { PYODIDE_FILES, PYODIDE_URL_PATH, type PyodideFile } from "@/lib/shared/code/pyodide-files";
import { CODE_DATA_DIR } from "@/lib/shared/llm/device-tools";
import { cleanTraceback, dataPath, missingModule, missingModuleLine, OutputBuffer } from "./output";
import type { RunRequest, WorkerMessage } from "./protocol";
import { lockNetwork } from "./sandbox";

// The DOM lib types `self` as a Window; in a worker it is the worker's scope.
// eslint-disable-next-line no-restricted-syntax
const scope = self as unknown as DedicatedWorkerGlobalScope;
// Taken before the lock: the worker's own ways out.
const post = scope.postMessage.bind(scope) as (message: WorkerMessage) => void;
const fetchOwn = scope.fetch.bind(scope);
const indexURL = new URL(PYODIDE_URL_PATH, scope.location.origin).href;

// Only Pyodide's listed files, each with its integrity.
async function fetchChecked(name: string): Promise<Response> {
  if (!Object.hasOwn(PYODIDE_FILES, name)) throw new TypeError(`Refused a file Pyodide's listing does not hold: ${name}`);
  const response = await fetchOwn(indexURL + name, { integrity: PYODIDE_FILES[name as PyodideFile], credentials: "omit" });
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response;
}

// From a Blob of its checked bytes, as import() takes no integrity.
async function importChecked<T>(name: PyodideFile): Promise<T> {
  const url = URL.createObjectURL(new Blob([await (await fetchChecked(name)).arrayBuffer()], { type: "text/javascript" }));
  try {
    return (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url)) as T;
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function loaderFetch(input: RequestInfo | URL): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input), indexURL);
  if (url.origin !== new URL(indexURL).origin || !url.pathname.startsWith(PYODIDE_URL_PATH)) throw new TypeError(`Refused a request while Python loads: ${url.href}`);
  const name = url.pathname.slice(PYODIDE_URL_PATH.length);
  const response = await fetchChecked(name);
  // WebAssembly.instantiateStreaming takes only application/wasm.
  if (name.endsWith(".wasm") && response.headers.get("content-type") !== "application/wasm") {
    return new Response(await response.arrayBuffer(), { headers: { "content-type": "application/wasm" } });
  }
  return response;
}

let output: OutputBuffer | null = null;
let running = 0;
const decoder = new TextDecoder();

function write(bytes: Uint8Array): number {
  const kept = output?.append(decoder.decode(bytes, { stream: true })) ?? "";
  if (kept) post({ hush: "code", kind: "output", id: running, text: kept });
  return bytes.length;
}

const refusePackages = () => {
  throw new Error("Packages cannot be loaded here: code on this device has Python's standard library only.");
};

async function load(): Promise<PyodideAPI> {
  // Pyodide refuses a worker whose importScripts works ("classic"); its chunks have run.
  const noScripts = () => {
    throw new TypeError("importScripts is off in this worker.");
  };
  Object.defineProperty(scope, "importScripts", { value: noScripts, configurable: true, writable: true });
  const asm = await importChecked<{ default: unknown }>("pyodide.asm.mjs");
  const { loadPyodide } = await importChecked<typeof import("pyodide")>("pyodide.mjs");
  const lockFileContents = (await fetchChecked("pyodide-lock.json")).json();
  Object.defineProperty(scope, "fetch", { value: loaderFetch, configurable: true, writable: true });
  const pyodide = await loadPyodide({
    indexURL,
    packageBaseUrl: indexURL,
    lockFileContents,
    ...({ createPyodideModule: asm.default } as object),
  });
  pyodide.setStdout({ write, isatty: false });
  pyodide.setStderr({ write, isatty: false });
  pyodide.setStdin({ error: true });
  // Plain ModuleNotFoundError: no note suggesting micropip or loadPackage, which cannot work here.
  pyodide.runPython(`
try:
    import _pyodide._importhook as _hook
    _hook.REPODATA_PACKAGES_IMPORT_TO_PACKAGE_NAME.clear()
except Exception:
    pass
import os
os.makedirs(${JSON.stringify(CODE_DATA_DIR)}, exist_ok=True)
`);
  Object.assign(pyodide, { loadPackage: refusePackages, loadPackagesFromImports: refusePackages });
  // No network from here on, this origin's included.
  lockNetwork(scope, ["postMessage"]);
  return pyodide;
}

let ready: Promise<PyodideAPI> | null = null;

// Emptied first, so a file of an earlier run is not read again.
function writeFiles(pyodide: PyodideAPI, files: RunRequest["files"]): void {
  const fs = pyodide.FS;
  for (const name of fs.readdir(CODE_DATA_DIR) as string[]) if (name !== "." && name !== "..") fs.unlink(`${CODE_DATA_DIR}/${name}`);
  for (const file of files) fs.writeFile(dataPath(file.name), file.text);
}

async function run(request: RunRequest): Promise<void> {
  let pyodide: PyodideAPI;
  try {
    ready ??= load();
    pyodide = await ready;
  } catch (error) {
    post({ hush: "code", kind: "unavailable", id: request.id, reason: error instanceof Error ? error.message.slice(0, 300) : "Python did not load." });
    return;
  }
  running = request.id;
  output = new OutputBuffer();
  writeFiles(pyodide, request.files);
  const globals = pyodide.globals.get("dict")();
  let status: "ok" | "error" = "ok";
  post({ hush: "code", kind: "started", id: request.id });
  try {
    pyodide.runPython(`import os\nos.chdir(${JSON.stringify(CODE_DATA_DIR)})`);
    await pyodide.runPythonAsync(request.code, { globals });
  } catch (error) {
    status = "error";
    const message = cleanTraceback(error instanceof Error ? error.message : String(error));
    write(new TextEncoder().encode(message.endsWith("\n") ? message : `${message}\n`));
    const missing = (error as { type?: string }).type === "ModuleNotFoundError" ? missingModule(message) : null;
    if (missing) write(new TextEncoder().encode(`${missingModuleLine(missing)}\n`));
  } finally {
    globals.destroy();
  }
  const done = output;
  output = null;
  post({ hush: "code", kind: "done", id: request.id, status, output: done.text(), truncated: done.truncated });
}

// One run at a time, in the order asked.
let queue = Promise.resolve();
scope.addEventListener("message", (event: MessageEvent<RunRequest>) => {
  if (event.data?.hush !== "code" || typeof event.data.code !== "string") return;
  const request = event.data;
  queue = queue.then(() => run(request));
});
post({ hush: "code", kind: "ready" });
