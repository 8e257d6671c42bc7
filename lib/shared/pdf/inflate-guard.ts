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

/** From this size on a decoder's buffer grows in place (growInPlace); smaller ones as pdf.js grows them. */
const IN_PLACE_FROM = 1024 * 1024;

type Resizable = ArrayBuffer & { resizable?: boolean; resize?: (byteLength: number) => void };

/**
 * Grow a decoder's buffer without a second copy: past IN_PLACE_FROM it moves once into a resizable
 * ArrayBuffer (reserved up to what the budget still allows, committed as it grows), which later growth resizes in
 * place. pdf.js's own growth allocates the doubled buffer while the old one is live and leaves every smaller one
 * to the garbage collector, which does not run for memory outside its heap until some 64 MB have piled up: a
 * bomb stopped at a 64 MiB buffer held about 160 MB. Sizes and the budget's count are pdf.js's (the same power of
 * two), so what a file may inflate to is unchanged.
 * @returns the grown buffer (a length-tracking view pdf.js keeps as `this.buffer`), or undefined to let pdf.js
 *   grow it (small buffers; an engine without resizable ArrayBuffers)
 */
function growInPlace(stream: DecodeStreamLike, requested: number, left: number): Uint8Array | undefined {
  const current = stream.buffer;
  if (requested <= current.byteLength) return current;
  const size = allocationFor(stream, requested);
  const own = current.buffer as Resizable;
  if (own.resizable && own.resize && current.byteOffset === 0) {
    own.resize(size);
    return current;
  }
  if (size < IN_PLACE_FROM || typeof (ArrayBuffer.prototype as Resizable).resize !== "function") return undefined;
  const Growable = ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => ArrayBuffer;
  const grown = new Uint8Array(new Growable(size, { maxByteLength: current.byteLength + left }));
  grown.set(current);
  stream.buffer = grown;
  return grown;
}

/** Bytes still allowed, or null when no extraction is counting (pdf.js used outside extract-text.ts). */
let budget: { max: number; left: number; exceeded: boolean; produced: number; inPlace: number } | null = null;
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
          const inPlace = budget ? growInPlace(this, requested, budget.left) : undefined;
          const buffer = inPlace ?? original.call(this, requested);
          if (budget) {
            const grown = buffer.byteLength - before;
            if (inPlace) budget.inPlace += grown;
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
 * @returns work's result and { exceeded, produced, grownInPlace } (bytes of decoder buffers allocated, of them grown
 *   in place by growInPlace; `exceeded` is set even when pdf.js caught the error thrown inside it and carried on)
 * @throws PdfError inflate_limit when the budget ran out and `work` failed; otherwise whatever `work` throws
 */
export async function withInflateLimit<T>(maxBytes: number, work: () => Promise<T>): Promise<{ value: T; exceeded: boolean; produced: number; grownInPlace: number }> {
  install();
  const mine = { max: maxBytes, left: maxBytes, exceeded: false, produced: 0, inPlace: 0 };
  budget = mine;
  try {
    const value = await work();
    return { value, exceeded: mine.exceeded, produced: mine.produced, grownInPlace: mine.inPlace };
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
