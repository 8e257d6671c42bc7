/**
 * Source of the PDF worker thread, run with `new Worker(source, { eval: true })`.
 *
 * Why a string: an eval worker needs no file on disk next to the bundle, so it runs the same under
 * Vitest, tsx and Next.js (Turbopack leaves strings alone). The worker imports pdf-parse from
 * node_modules relative to the working directory (pdf-parse is in next.config serverExternalPackages).
 *
 * Protocol: the parent posts { id, bytes: Uint8Array (transferred), maxPages, maxChars }; the worker
 * answers { id, ok: true, text, pages, totalPages, truncated } or { id, ok: false, error: <name> },
 * where name is pdf-parse's exception name ("PasswordException", "InvalidPDFException", ...) or
 * "LoadError" when pdf-parse itself cannot be loaded. One job at a time per worker.
 */
export const PDF_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort } = require("node:worker_threads");
// pdf.js prints warnings that can quote document content; nothing from this thread may be logged.
for (const level of ["log", "info", "warn", "error", "debug", "trace"]) console[level] = () => {};

let libPromise;
function loadLib() {
  libPromise ??= import("pdf-parse");
  return libPromise;
}

function cut(text, max) {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

async function extract(lib, job) {
  const parser = new lib.PDFParse({
    data: job.bytes,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  try {
    let text = "";
    let pages = 0;
    let totalPages = 0;
    let cutText = false;
    for (let n = 1; ; n++) {
      const result = await parser.getText({ partial: [n], pageJoiner: "" });
      totalPages = result.total;
      if (n > totalPages) break;
      pages = n;
      const pageText = (result.pages[0] ? result.pages[0].text : "").replace(/\u0000/g, "").trim();
      if (pageText) text += (text ? "\n\n" : "") + pageText;
      if (text.length >= job.maxChars) {
        cutText = text.length > job.maxChars;
        text = cut(text, job.maxChars);
        break;
      }
      if (n >= Math.min(totalPages, job.maxPages)) break;
    }
    return { text, pages, totalPages, truncated: cutText || pages < totalPages };
  } finally {
    await parser.destroy().catch(() => {});
  }
}

parentPort.on("message", async (job) => {
  let lib;
  try {
    lib = await loadLib();
  } catch {
    parentPort.postMessage({ id: job.id, ok: false, error: "LoadError" });
    return;
  }
  try {
    const result = await extract(lib, job);
    parentPort.postMessage({ id: job.id, ok: true, ...result });
  } catch (error) {
    const name = error && typeof error.name === "string" ? error.name : "Error";
    parentPort.postMessage({ id: job.id, ok: false, error: name });
  }
});
`;
