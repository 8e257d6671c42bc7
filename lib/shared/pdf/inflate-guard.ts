// The decompression limit, inside pdf.js's decoders: every byte-producing decoder grows through `ensureBuffer`, found
// from the first decoder built via a setter of HOOK_FIELD (tests/unit/pdf.test.ts fails if it no longer attaches).

import { PdfError } from "./errors";

/** The field DecodeStream's constructor assigns first (pdfjs-dist 5.4.296, pdf.worker.mjs). */
const HOOK_FIELD = "_rawMinBufferLength";

interface DecodeStreamLike {
  buffer: Uint8Array;
  minBufferLength?: number;
  ensureBuffer(requested: number): Uint8Array;
}

function allocationFor(stream: DecodeStreamLike, requested: number): number {
  let size = stream.minBufferLength && stream.minBufferLength > 0 ? stream.minBufferLength : 512;
  while (size < requested) size *= 2;
  return size;
}

const IN_PLACE_FROM = 1024 * 1024;

type Resizable = ArrayBuffer & { resizable?: boolean; resize?: (byteLength: number) => void };

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
  const grown = new Uint8Array(new ArrayBuffer(size, { maxByteLength: current.byteLength + left }));
  grown.set(current);
  stream.buffer = grown;
  return grown;
}

let budget: { max: number; left: number; exceeded: boolean; produced: number; inPlace: number } | null = null;
let patched = false;
const seen = new WeakSet<object>();

function patch(instance: object): void {
  for (let proto = Object.getPrototypeOf(instance); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (seen.has(proto)) continue;
    seen.add(proto);
    const own = Object.getOwnPropertyNames(proto);
    // FlateStream's DecompressionStream path has no limit: answering null makes pdf.js inflate through readBlock.
    if (own.includes("asyncGetBytes") && own.includes("getBits")) {
      Object.defineProperty(proto, "asyncGetBytes", { value: async () => null, configurable: true, writable: true });
    }
    if (own.includes("ensureBuffer") && own.includes("makeSubStream")) {
      const original = (proto as DecodeStreamLike).ensureBuffer;
      Object.defineProperty(proto, "ensureBuffer", {
        configurable: true,
        writable: true,
        value: function ensureBuffer(this: DecodeStreamLike, requested: number): Uint8Array {
          const before = this.buffer.byteLength;
          if (budget && requested > before) {
            // Refuse before allocating, on the size pdf.js will really allocate, not `requested`.
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

/** Run `work` with at most `maxBytes` of decoder output in total. @throws PdfError inflate_limit when `work` failed past it */
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

export function inflateGuardAttached(): boolean {
  return patched;
}
