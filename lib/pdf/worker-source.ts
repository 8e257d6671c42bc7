/**
 * Source of the PDF worker thread, run with `new Worker(source, { eval: true })`.
 *
 * Why a string: an eval worker needs no file on disk next to the bundle, so it runs the same under
 * Vitest, tsx and Next.js (Turbopack leaves strings alone). The worker imports pdf-parse from
 * node_modules relative to the working directory (pdf-parse is in next.config serverExternalPackages).
 *
 * Before pdf.js sees the file, every Flate-compressed stream that pdf.js may decode for text (all but
 * images) is inflated once, streaming, counting bytes and keeping none: when the total would pass
 * maxInflatedBytes the job fails with "InflateLimit" (a decompression bomb: 1 MB that inflates to
 * 1 GB), in a fraction of a second and with memory bounded by zlib's chunk size.
 *
 * Protocol: the parent posts { id, bytes: Uint8Array (transferred), maxPages, maxChars, maxInflatedBytes }; the worker
 * answers { id, ok: true, text, pages, totalPages, truncated } or { id, ok: false, error: <name> },
 * where name is pdf-parse's exception name ("PasswordException", "InvalidPDFException", ...) or
 * "LoadError" when pdf-parse itself cannot be loaded, or "InflateLimit". One job at a time per worker.
 */
export const PDF_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort } = require("node:worker_threads");
// pdf.js prints warnings that can quote document content; nothing from this thread may be logged.
for (const level of ["log", "info", "warn", "error", "debug", "trace"]) console[level] = () => {};

const zlib = require("node:zlib");
const { Readable } = require("node:stream");
const { pipeline } = require("node:stream/promises");

// Flate-compressed streams of the file, except images (pdf.js does not decode those to extract text):
// [{ start, end, layers }], layers = how many Flate filters are chained (at most 3 counted).
function flateStreams(buf) {
  const found = [];
  let pos = 0;
  for (;;) {
    pos = buf.indexOf("stream", pos, "latin1");
    if (pos < 0) break;
    const keywordEnd = pos + 6;
    if (pos >= 3 && buf.toString("latin1", pos - 3, pos) === "end") {
      pos = keywordEnd;
      continue;
    }
    let start;
    if (buf[keywordEnd] === 0x0d && buf[keywordEnd + 1] === 0x0a) start = keywordEnd + 2;
    else if (buf[keywordEnd] === 0x0a || buf[keywordEnd] === 0x0d) start = keywordEnd + 1;
    else {
      pos = keywordEnd;
      continue;
    }
    const head = buf.toString("latin1", Math.max(0, pos - 4096), pos);
    const objAt = head.lastIndexOf("obj");
    const dict = objAt >= 0 ? head.slice(objAt) : head;
    const layers = (dict.match(/\/(?:FlateDecode|Fl)(?![A-Za-z0-9])/g) || []).length;
    const image = /\/Subtype\s*\/Image(?![A-Za-z0-9])/.test(dict);
    const endAt = buf.indexOf("endstream", start, "latin1");
    const end = endAt < 0 ? buf.length : endAt;
    if (layers > 0 && !image) found.push({ start, end, layers: Math.min(layers, 3) });
    pos = end;
  }
  return found;
}

const OVER = new Error("over");

// Inflated size of one stream through its Flate layers, counting at most limit bytes (then Infinity).
// Corrupt data counts what inflated before the error: pdf.js decides what to make of the rest.
async function inflatedSize(data, layers, limit) {
  let total = 0;
  const inflaters = [];
  for (let i = 0; i < layers; i++) inflaters.push(zlib.createInflate({ chunkSize: 1 << 20, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  try {
    await pipeline(Readable.from([data], { objectMode: false }), ...inflaters, async function (source) {
      for await (const chunk of source) {
        total += chunk.length;
        if (total > limit) throw OVER;
      }
    });
  } catch (error) {
    if (error === OVER) return Infinity;
  }
  return total;
}

// True when the file's decodable streams inflate to more than maxBytes in total.
async function exceedsInflateLimit(bytes, maxBytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let budget = maxBytes;
  for (const s of flateStreams(buf)) {
    budget -= await inflatedSize(buf.subarray(s.start, s.end), s.layers, budget);
    if (budget < 0) return true;
  }
  return false;
}

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
  try {
    if (await exceedsInflateLimit(job.bytes, job.maxInflatedBytes)) {
      parentPort.postMessage({ id: job.id, ok: false, error: "InflateLimit" });
      return;
    }
  } catch {
    // Scanning failed: pdf.js still runs under the heap cap and the deadline.
  }
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
