/// <reference lib="webworker" />
// One worker per .docx, terminated at the deadline; mammoth loads only here. Nothing is logged: warnings can quote the document.
import mammoth from "mammoth";
import { FileError } from "@/lib/browser/files/errors";
import { checkDocxZip } from "./zip-check";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};

// The DOM lib types `self` as a Window; in a worker it is the worker's scope.
// eslint-disable-next-line no-restricted-syntax
const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.addEventListener("message", async (event: MessageEvent<{ hush?: string; bytes: Uint8Array<ArrayBuffer>; maxInflatedBytes: number }>) => {
  if (event.data?.hush !== "docx") return;
  try {
    const { bytes, maxInflatedBytes } = event.data;
    checkDocxZip(bytes, maxInflatedBytes);
    const result = await mammoth.extractRawText({ arrayBuffer: bytes.buffer });
    scope.postMessage({ hush: "docx", type: "done", text: result.value });
  } catch (error) {
    scope.postMessage({ hush: "docx", type: "failed", code: error instanceof FileError ? error.code : "unreadable" });
  }
});

scope.postMessage({ hush: "docx", type: "ready" });
