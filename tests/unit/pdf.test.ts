import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PDFParse } from "pdf-parse";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { WorkerMessageHandler } from "pdfjs-dist/legacy/build/pdf.worker.mjs";
import { NOT_PDF_MESSAGE, PdfError, type PdfErrorCode } from "@/lib/shared/pdf/errors";
import { extractPdfText, hasPdfMagic, type PdfParseClass, type PdfLimits } from "@/lib/shared/pdf/extract-text";
import { inflateGuardAttached, withInflateLimit } from "@/lib/shared/pdf/inflate-guard";
import { truncationNotice } from "@/lib/browser/pdf";
import { formatBytes } from "@/lib/shared/bytes";
import { BOMB_VARIANTS, pdfBomb, pdfBombVariant, type BombVariant } from "../helpers/pdf-bomb";

/**
 * The limits of reading a PDF (docs/issues.md #20 "Documents", #39): lib/shared/pdf/extract-text.ts on pdf-parse,
 * which the browser's PDF Web Worker (lib/browser/pdf/pdf.worker.ts) and the server's PDF worker thread
 * (lib/server/pdf/pdf.worker.ts) both run. The same function runs here on pdf-parse's Node build, set up the way
 * the workers set it up (pdf.js's worker code on the same thread, `globalThis.pdfjsWorker`). The wall-clock
 * limit is the worker's termination, covered end to end (e2e/chat.spec.ts) and on the server
 * (tests/route/chat-file.test.ts).
 */
const fixture = (name: string) => new Uint8Array(readFileSync(path.join(__dirname, "../fixtures", name)));
const LIMITS: Omit<PdfLimits, "timeoutMs"> = { maxBytes: 10 * 1024 * 1024, maxPages: 100, maxChars: 60_000, maxInflatedBytes: 100 * 1024 * 1024 };
const extract = (bytes: Uint8Array, limits: Partial<PdfLimits> = {}) =>
  extractPdfText(PDFParse as unknown as PdfParseClass, bytes, { ...LIMITS, ...limits });

beforeAll(() => {
  (globalThis as unknown as { pdfjsWorker: unknown }).pdfjsWorker = { WorkerMessageHandler };
});

/** The part of pdf.js used by firstPageText. */
interface PdfjsLike {
  getDocument(params: Record<string, unknown>): {
    promise: Promise<{ getPage(n: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }> }> }>;
    destroy(): Promise<void>;
  };
}

/** pdf.js alone, no limit of extract-text.ts: the first page's text items. */
async function firstPageText(bytes: Uint8Array): Promise<unknown[]> {
  const task = (pdfjs as unknown as PdfjsLike).getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false, disableFontFace: true, stopAtErrors: false });
  try {
    const doc = await task.promise;
    return (await (await doc.getPage(1)).getTextContent()).items;
  } finally {
    await task.destroy();
  }
}

async function pdfErrorCode(promise: Promise<unknown>): Promise<PdfErrorCode> {
  const err = await promise.then(
    () => {
      throw new Error("expected a PdfError");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PdfError);
  return (err as PdfError).code;
}

describe("extractPdfText (pdf-parse)", () => {
  it("reads every page of a real multi-page PDF, in order", async () => {
    const result = await extract(fixture("multipage.pdf"));
    expect(result).toMatchObject({ pages: 8, totalPages: 8, truncated: false });
    expect(result.text).toContain("Fixture document for Hush PDF extraction tests.");
    expect(result.text).toContain("Zürich.");
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
    const positions = words.map((w, i) => result.text.indexOf(`Page ${i + 1} marker: ${w}.`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("starts the end-to-end report with its distinctive sentence", async () => {
    const result = await extract(fixture("e2e-report.pdf"));
    expect(result).toMatchObject({ pages: 3, totalPages: 3, truncated: false });
    expect(result.text.startsWith("Hush quarterly privacy report.")).toBe(true);
  });

  it("reads at most maxPages pages and marks the rest as truncated", async () => {
    const result = await extract(fixture("multipage.pdf"), { maxPages: 3 });
    expect(result).toMatchObject({ pages: 3, totalPages: 8, truncated: true });
    expect(result.text).toContain("Page 3 marker: charlie.");
    expect(result.text).not.toContain("Page 4 marker");
    expect(truncationNotice(result, LIMITS.maxChars)).toBe("Only the first 3 of 8 pages of this PDF were read.");
  });

  it("caps the text at maxChars, stops reading pages and marks it truncated", async () => {
    const result = await extract(fixture("multipage.pdf"), { maxChars: 500 });
    expect(result.text).toHaveLength(500);
    expect(result.truncated).toBe(true);
    expect(result.pages).toBeLessThan(8);
    expect(result.text).toContain("Page 1 marker: alpha.");
  });

  it("is not truncated when the limits are exactly met", async () => {
    const full = await extract(fixture("e2e-report.pdf"));
    expect(truncationNotice(full, LIMITS.maxChars)).toBeNull();
    const exact = await extract(fixture("e2e-report.pdf"), { maxPages: 3, maxChars: full.text.length });
    expect(exact).toEqual(full);
  });

  it("reads a PDF encrypted with an empty user password (permissions only)", async () => {
    const result = await extract(fixture("owner-encrypted.pdf"));
    expect(result.text.startsWith("Hush quarterly privacy report.")).toBe(true);
  });

  it.each<[string, string, PdfErrorCode]>([
    ["password-protected", "encrypted.pdf", "encrypted"],
    ["truncated", "truncated.pdf", "unreadable"],
    ["corrupt", "corrupt.pdf", "unreadable"],
    ["image-only (scanned)", "image-only.pdf", "no_text"],
    ["not a PDF (PNG)", "not-a-pdf.png", "not_pdf"],
  ])("rejects a %s file", async (_label, name, code) => {
    expect(await pdfErrorCode(extract(fixture(name)))).toBe(code);
  });

  it("rejects a file over maxBytes before parsing, naming the limit", async () => {
    const err = await extract(fixture("multipage.pdf"), { maxBytes: 20 * 1024 }).catch((e: unknown) => e);
    expect((err as PdfError).code).toBe("too_large");
    expect((err as PdfError).message).toBe("This PDF is too large. The limit is 20 KB.");
  });

  it("does not detach the caller's buffer", async () => {
    const bytes = fixture("e2e-report.pdf");
    await extract(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(hasPdfMagic(bytes)).toBe(true);
  });

  it("says not_pdf with the docs/product.md §5 wording", async () => {
    const err = await extract(new TextEncoder().encode("plain text")).catch((e: unknown) => e);
    expect((err as PdfError).message).toBe(NOT_PDF_MESSAGE);
    expect(NOT_PDF_MESSAGE).toBe("Sorry, this filetype is not supported in this demo yet. Try a PDF.");
  });
});

describe("the decompression limit, counted inside pdf.js's decoders (docs/issues.md #22)", () => {
  const MiB = 1024 * 1024;
  let bomb: Uint8Array;
  const variants = new Map<BombVariant, Uint8Array>();
  beforeAll(async () => {
    bomb = new Uint8Array(await pdfBomb());
    // 256 MiB each: past the 100 MB limit, small enough that pdf.js without the limit survives it (and then
    // answers with the text, which is how these tests fail on a scan of the raw bytes).
    for (const variant of BOMB_VARIANTS) variants.set(variant, new Uint8Array(await pdfBombVariant(variant, 256 * MiB)));
  }, 120_000);

  it("fails a 1 MB file that inflates to 1 GiB with the inflation-limit error, naming the limit", async () => {
    expect(bomb.byteLength).toBeLessThan(1.5 * MiB);
    const err = await extract(bomb).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).code).toBe("inflate_limit");
    expect((err as PdfError).message).toBe("This PDF expands to more than 100 MB when opened, which is more than Hush reads. Try a smaller PDF.");
    expect(inflateGuardAttached()).toBe(true);
  });

  it.each(BOMB_VARIANTS)("fails the %s variant, which a scan of the raw bytes misses", async (variant) => {
    const bytes = variants.get(variant)!;
    expect(bytes.byteLength).toBeLessThan(2.5 * MiB);
    expect(await pdfErrorCode(extract(bytes, { maxInflatedBytes: 16 * MiB }))).toBe("inflate_limit");
  });

  it("stops each decoder before the buffer pdf.js would really allocate passes the limit", async () => {
    // 12 MiB is no power of two: from an 8 MiB buffer, pdf.js's next is 16 MiB, though a few bytes more were asked
    // for. Counting the bytes asked for let that 16 MiB buffer through (and 128 MiB under the 100 MB default).
    for (const variant of BOMB_VARIANTS) {
      const limit = 12 * MiB;
      const { exceeded, produced } = await withInflateLimit(limit, () => firstPageText(variants.get(variant)!).catch(() => null));
      expect(exceeded, variant).toBe(true);
      expect(produced, variant).toBeLessThanOrEqual(limit);
    }
  });

  it("reads the same variants' text when they inflate to less than the limit", async () => {
    for (const variant of BOMB_VARIANTS) {
      const small = new Uint8Array(await pdfBombVariant(variant, MiB));
      const result = await extract(small);
      expect(result.text, variant).toContain("Hello from the bomb");
    }
  });

  it("grows a decoder's buffer past 1 MiB in place, and reads the same text", async () => {
    for (const variant of BOMB_VARIANTS) {
      const bomb = new Uint8Array(await pdfBombVariant(variant, 6 * MiB));
      const { value, produced, grownInPlace } = await withInflateLimit(50 * MiB, () => firstPageText(bomb));
      expect(JSON.stringify(value), variant).toContain("Hello from the bomb");
      // 8 MiB holds the 6 MiB stream; from 2 MiB on (1 MiB was the first past the threshold) it grew in place.
      expect(produced, variant).toBeGreaterThanOrEqual(8 * MiB);
      expect(grownInPlace, variant).toBeGreaterThanOrEqual(6 * MiB);
    }
  });

  it("lets ordinary PDFs through, and counts what they inflate to", async () => {
    expect((await extract(fixture("multipage.pdf"))).pages).toBe(8);
    expect(await pdfErrorCode(extract(fixture("multipage.pdf"), { maxInflatedBytes: 10 }))).toBe("inflate_limit");
  });
});

describe("formatBytes", () => {
  it("names limits in MB, or KB below one", () => {
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatBytes(2.5 * 1024 * 1024)).toBe("2.5 MB");
    expect(formatBytes(20 * 1024)).toBe("20 KB");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(200)).toBe("200 bytes");
  });
});

describe("hasPdfMagic", () => {
  it("accepts %PDF- within the first 1024 bytes only", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(hasPdfMagic(enc("%PDF-1.7\n"))).toBe(true);
    expect(hasPdfMagic(enc(`${" ".repeat(100)}%PDF-1.4`))).toBe(true);
    expect(hasPdfMagic(enc(`${" ".repeat(1024)}%PDF-1.4`))).toBe(false);
    expect(hasPdfMagic(enc("%PDF"))).toBe(false);
    expect(hasPdfMagic(new Uint8Array())).toBe(false);
  });
});
