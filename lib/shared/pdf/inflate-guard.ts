/**
 * The decompression limit, enforced inside pdf.js's decoders ("Compressed-stream
 * bombs"). Every pdf.js decoder that produces bytes (Flate, LZW, predictors, ASCII85/Hex, RunLength,
 * decryption, concatenated content streams) grows its output through one method,
 * `DecodeStream.prototype.ensureBuffer(requested)`. Wrapping that method counts output as it is produced,
 * whatever the filter is called (`/Flat#65Decode`), however it is given (an array, an indirect object) and
 * wherever the stream lives (object streams): the first growth past the budget throws before its buffer is
 * allocated, counted at the size pdf.js really allocates (it doubles), so a bomb's largest decoder buffer is the
 * largest power of two within the budget, and while pdf.js copies into it the old half is live too (64 + 32 MiB
 * for the 100 MiB default).
 *
 * pdf.js exports no decoder class, so the prototype is found from the first decoder pdf.js constructs:
 * `DecodeStream`'s constructor assigns `this._rawMinBufferLength`, and a setter of that name on
 * Object.prototype sees each new instance, patches its prototype chain the first time it sees it, and
 * stores the field on the instance as an ordinary property. This runs only
 * in the realm that parses PDFs (the browser's dedicated PDF worker, the server's PDF worker thread, or a
 * test process), on pdfjs-dist's worker code, which both hand to pdf-parse as `globalThis.pdfjsWorker`; the pinned
 * pdfjs-dist version is checked by tests/unit/pdf.test.ts, which fails if the hook no longer attaches.
 *
 * Image decoders whose output is not grown through ensureBuffer (JPEG, JPEG 2000, JBIG2, CCITT) are never
 * run for text extraction. `FlateStream.asyncGetBytes` (the platform DecompressionStream, for images) is
 * turned off so that every inflate goes through the counted path.
 */

import { PdfError } from "./errors";

/** The field DecodeStream's constructor assigns first (pdfjs-dist 5.4.296, pdf.worker.mjs). */
const HOOK_FIELD = "_rawMinBufferLength";

interface DecodeStreamLike {
  buffer: Uint8Array;
  minBufferLength?: number;
  ensureBuffer(requested: number): Uint8Array;
}

/** The byte length of the buffer DecodeStream.ensureBuffer allocates for `requested` (pdfjs-dist 5.4.296). */
function allocationFor(stream: DecodeStreamLike, requested: number): number {
  let size = stream.minBufferLength && stream.minBufferLength > 0 ? stream.minBufferLength : 512;
  while (size < requested) size *= 2;
  return size;
}

/** Bytes still allowed, or null when no extraction is counting (pdf.js used outside extract-text.ts). */
let budget: { max: number; left: number; exceeded: boolean; produced: number } | null = null;
let patched = false;
/** Prototypes already looked at: each decoder class is patched once, when its first instance is built. */
const seen = new WeakSet<object>();

function patch(instance: object): void {
  for (let proto = Object.getPrototypeOf(instance); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (seen.has(proto)) continue;
    seen.add(proto);
    const own = Object.getOwnPropertyNames(proto);
    // FlateStream's DecompressionStream path has no limit: answering null makes pdf.js inflate through
    // readBlock, which is counted below.
    if (own.includes("asyncGetBytes") && own.includes("getBits")) {
      Object.defineProperty(proto, "asyncGetBytes", { value: async () => null, configurable: true, writable: true });
    }
    // DecodeStream itself: the base class that owns both ensureBuffer and makeSubStream.
    if (own.includes("ensureBuffer") && own.includes("makeSubStream")) {
      const original = (proto as DecodeStreamLike).ensureBuffer;
      Object.defineProperty(proto, "ensureBuffer", {
        configurable: true,
        writable: true,
        value: function ensureBuffer(this: DecodeStreamLike, requested: number): Uint8Array {
          const before = this.buffer.byteLength;
          if (budget && requested > before) {
            // Refuse before allocating, on the size pdf.js will really allocate: the smallest power-of-two multiple
            // of minBufferLength that holds `requested` (its ensureBuffer), not `requested`, which from a 64 MiB
            // buffer with 36 MiB left would let a 128 MiB one through (192 MiB live while it copies).
            if (budget.exceeded || allocationFor(this, requested) - before > budget.left) {
              budget.exceeded = true;
              throw new PdfError("inflate_limit", { maxBytes: budget.max });
            }
          }
          const buffer = original.call(this, requested);
          if (budget) {
            const grown = buffer.byteLength - before;
            budget.left -= grown;
            budget.produced += grown;
          }
          return buffer;
        },
      });
      patched = true;
    }
  }
}

/**
 * Install the hook (idempotent). It stays for the realm's life: the first decoder of each class pdf.js
 * builds (DecodeStream's subclasses: FlateStream's asyncGetBytes is only reached through a FlateStream)
 * patches its prototypes; each instance gets the field as an ordinary own property.
 */
function install(): void {
  if (Object.prototype.hasOwnProperty.call(Object.prototype, HOOK_FIELD)) return;
  Object.defineProperty(Object.prototype, HOOK_FIELD, {
    configurable: true,
    set(this: object, value: unknown) {
      Object.defineProperty(this, HOOK_FIELD, { value, writable: true, enumerable: true, configurable: true });
      patch(this);
    },
  });
}

/**
 * Run `work` (a pdf.js parse) with at most `maxBytes` of decoder output in total, counted as produced.
 * One count at a time per realm: the browser runs one PDF per worker, the server one PDF at a time per
 * worker thread, tests run extractions in sequence.
 * @returns work's result and { exceeded, produced } (bytes of decoder buffers allocated; `exceeded` is set
 *   even when pdf.js caught the error thrown inside it and carried on with the rest of the file)
 * @throws PdfError inflate_limit when the budget ran out and `work` failed; otherwise whatever `work` throws
 */
export async function withInflateLimit<T>(maxBytes: number, work: () => Promise<T>): Promise<{ value: T; exceeded: boolean; produced: number }> {
  install();
  const mine = { max: maxBytes, left: maxBytes, exceeded: false, produced: 0 };
  budget = mine;
  try {
    const value = await work();
    return { value, exceeded: mine.exceeded, produced: mine.produced };
  } catch (error) {
    if (mine.exceeded) throw new PdfError("inflate_limit", { maxBytes });
    throw error;
  } finally {
    budget = null;
  }
}

/** True once a pdf.js decoder has been seen and its prototype patched (for tests). */
export function inflateGuardAttached(): boolean {
  return patched;
}
