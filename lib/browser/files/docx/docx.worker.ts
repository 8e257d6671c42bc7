/// <reference lib="webworker" />
/**
 * The browser's Word worker: one dedicated Web Worker per .docx, started
 * by ./index.ts and terminated by it at the deadline, so a hostile document cannot hang or exhaust the
 * page. mammoth (BSD-2-Clause) is imported here only, so it is fetched when a Word document is first
 * attached, never with /chat. Nothing from this thread is logged: warnings can quote the document.
 *
 * Protocol (every message carries hush: "docx"): posts { type: "ready" } once loaded; then receives
 * { bytes (transferred), maxInflatedBytes } and answers { type: "done", text } or { type: "failed", code }.
 */
import mammoth from "mammoth";
import { FileError } from "@/lib/browser/files/errors";
import { checkDocxZip } from "./zip-check";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};

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
