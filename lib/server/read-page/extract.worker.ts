/**
 * The page extraction worker thread (docs/issues.md #51), started by ./extract-pool.ts with a heap limit and
 * terminated by it at READ_PAGE_EXTRACT_TIMEOUT_MS: Readability, linkedom and turndown (./markdown.ts) are
 * synchronous and take hundreds of milliseconds on a 2 MB page, which must not hold the request thread. Nothing
 * from this thread is logged (a message could quote the page); it imports nothing server-only.
 *
 * Protocol (lib/server/workers/pool.ts): receives { id, job: { bytes, contentType, maxChars } } and answers
 * { id, ok: true, result: { title, text } } (./markdown.ts htmlToMarkdown) or { id, ok: false }. One job at a time.
 */
import { parentPort } from "node:worker_threads";
import { decodePage } from "./decode";
import { htmlToMarkdown } from "./markdown";

for (const level of ["log", "info", "warn", "error", "debug", "trace"] as const) console[level] = () => {};

interface Job {
  bytes: Uint8Array;
  contentType: string;
  maxChars: number;
}

parentPort?.on("message", ({ id, job }: { id: number; job: Job }) => {
  try {
    const result = htmlToMarkdown(decodePage(job.bytes, job.contentType), job.maxChars);
    parentPort?.postMessage({ id, ok: true, result });
  } catch {
    parentPort?.postMessage({ id, ok: false });
  }
});
