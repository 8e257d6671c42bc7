import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import {
  decodeDataUrl,
  extractPdfText,
  formatMegabytes,
  hasPdfMagic,
  NOT_PDF_MESSAGE,
  PdfError,
  shutdownPdfWorkers,
  type PdfErrorCode,
} from "@/lib/pdf";

const fixture = (name: string) => readFileSync(path.join(__dirname, "../fixtures", name));

afterAll(async () => {
  await shutdownPdfWorkers();
});

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

describe("extractPdfText", () => {
  it("reads every page of a real multi-page PDF, in order", async () => {
    const result = await extractPdfText(fixture("multipage.pdf"));
    expect(result.pages).toBe(8);
    expect(result.totalPages).toBe(8);
    expect(result.truncated).toBe(false);
    expect(result.text).toContain("Fixture document for Hush PDF extraction tests.");
    expect(result.text).toContain("café, naïve,");
    expect(result.text).toContain("Zürich.");
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
    const positions = words.map((w, i) => result.text.indexOf(`Page ${i + 1} marker: ${w}.`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("starts the end-to-end report with its distinctive sentence", async () => {
    const result = await extractPdfText(fixture("e2e-report.pdf"));
    expect(result).toMatchObject({ pages: 3, totalPages: 3, truncated: false });
    expect(result.text.startsWith("Hush quarterly privacy report.")).toBe(true);
    expect(result.text).toContain("Page three: the next review");
  });

  it("reads at most maxPages pages and marks the rest as truncated", async () => {
    const result = await extractPdfText(fixture("multipage.pdf"), { maxPages: 3 });
    expect(result).toMatchObject({ pages: 3, totalPages: 8, truncated: true });
    expect(result.text).toContain("Page 3 marker: charlie.");
    expect(result.text).not.toContain("Page 4 marker");
  });

  it("caps the text at maxChars, stops reading pages and marks it truncated", async () => {
    const result = await extractPdfText(fixture("multipage.pdf"), { maxChars: 500 });
    expect(result.text).toHaveLength(500);
    expect(result.truncated).toBe(true);
    expect(result.pages).toBeLessThan(8);
    expect(result.totalPages).toBe(8);
    expect(result.text).toContain("Page 1 marker: alpha.");
  });

  it("is not truncated when the limits are exactly met", async () => {
    const full = await extractPdfText(fixture("e2e-report.pdf"));
    const exact = await extractPdfText(fixture("e2e-report.pdf"), { maxPages: 3, maxChars: full.text.length });
    expect(exact).toEqual(full);
  });

  it("reads a PDF encrypted with an empty user password (permissions only)", async () => {
    const result = await extractPdfText(fixture("owner-encrypted.pdf"));
    expect(result.text.startsWith("Hush quarterly privacy report.")).toBe(true);
  });

  it.each<[string, string, PdfErrorCode]>([
    ["password-protected", "encrypted.pdf", "encrypted"],
    ["truncated", "truncated.pdf", "unreadable"],
    ["corrupt", "corrupt.pdf", "unreadable"],
    ["image-only (scanned)", "image-only.pdf", "no_text"],
    ["not a PDF (PNG)", "not-a-pdf.png", "not_pdf"],
  ])("rejects a %s file", async (_label, name, code) => {
    expect(await pdfErrorCode(extractPdfText(fixture(name)))).toBe(code);
  });

  it("rejects a file over maxBytes before parsing, naming the limit in MB", async () => {
    const bytes = fixture("multipage.pdf");
    const err = await extractPdfText(bytes, { maxBytes: 20 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).code).toBe("too_large");
    expect((err as PdfError).message).toBe("This PDF is too large. The limit is 20 KB.");
    const configured = await extractPdfText(Buffer.alloc(11 * 1024 * 1024, 0x20)).catch((e: unknown) => e);
    expect((configured as PdfError).message).toBe("This PDF is too large. The limit is 10 MB.");
  });

  it("uses PDF_MAX_BYTES from config", async () => {
    process.env.PDF_MAX_BYTES = "1000";
    resetConfigForTests();
    try {
      expect(await pdfErrorCode(extractPdfText(fixture("e2e-report.pdf")))).toBe("too_large");
    } finally {
      delete process.env.PDF_MAX_BYTES;
      resetConfigForTests();
    }
  });

  it("gives up with a timeout error when parsing outlasts timeoutMs", async () => {
    expect(await pdfErrorCode(extractPdfText(fixture("multipage.pdf"), { timeoutMs: 1 }))).toBe("timeout");
    // The pool replaces the terminated worker: the next document still parses.
    const after = await extractPdfText(fixture("e2e-report.pdf"));
    expect(after.pages).toBe(3);
  });

  it("parses several documents at once", async () => {
    const results = await Promise.all(
      ["multipage.pdf", "e2e-report.pdf", "multipage.pdf", "e2e-report.pdf"].map((f) => extractPdfText(fixture(f))),
    );
    expect(results.map((r) => r.pages)).toEqual([8, 3, 8, 3]);
  });

  it("does not detach the caller's buffer", async () => {
    const bytes = fixture("e2e-report.pdf");
    await extractPdfText(bytes);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(hasPdfMagic(bytes)).toBe(true);
  });

  it("says not_pdf with the docs/product.md §5 wording", async () => {
    const err = await extractPdfText(Buffer.from("plain text")).catch((e: unknown) => e);
    expect((err as PdfError).message).toBe(NOT_PDF_MESSAGE);
    expect(NOT_PDF_MESSAGE).toBe("Sorry, this filetype is not supported in this demo yet. Try a PDF.");
  });
});

describe("formatMegabytes", () => {
  it("names limits in MB, or KB below one", () => {
    expect(formatMegabytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatMegabytes(2.5 * 1024 * 1024)).toBe("2.5 MB");
    expect(formatMegabytes(20 * 1024)).toBe("20 KB");
  });
});

describe("hasPdfMagic", () => {
  it("accepts %PDF- within the first 1024 bytes only", () => {
    expect(hasPdfMagic(Buffer.from("%PDF-1.7\n"))).toBe(true);
    expect(hasPdfMagic(Buffer.concat([Buffer.alloc(100, 0x20), Buffer.from("%PDF-1.4")]))).toBe(true);
    expect(hasPdfMagic(Buffer.concat([Buffer.alloc(1024, 0x20), Buffer.from("%PDF-1.4")]))).toBe(false);
    expect(hasPdfMagic(Buffer.from("%PDF"))).toBe(false);
    expect(hasPdfMagic(new Uint8Array())).toBe(false);
  });
});

describe("decodeDataUrl", () => {
  it("decodes a base64 data URL as FileReader writes it", () => {
    const bytes = fixture("e2e-report.pdf");
    const decoded = decodeDataUrl(`data:application/pdf;base64,${bytes.toString("base64")}`);
    expect(decoded.mimeType).toBe("application/pdf");
    expect(decoded.bytes.equals(bytes)).toBe(true);
  });

  it("lower-cases the media type, drops parameters and defaults to text/plain", () => {
    expect(decodeDataUrl("data:Application/PDF;name=a.pdf;base64,JVBERi0=").mimeType).toBe("application/pdf");
    expect(decodeDataUrl("data:;base64,aGk=")).toEqual({ mimeType: "text/plain", bytes: Buffer.from("hi") });
    expect(decodeDataUrl("data:application/pdf;base64,").bytes).toHaveLength(0);
  });

  it.each([
    ["not a data URL", "hello"],
    ["no comma", "data:application/pdf;base64"],
    ["not base64-encoded", "data:application/pdf,%25PDF-1.7"],
    ["bad characters", "data:application/pdf;base64,JVBE*i0="],
    ["bad length", "data:application/pdf;base64,JVBER"],
    ["misplaced padding", "data:application/pdf;base64,JV=Ri0=="],
    ["bad media type", "data:application pdf;base64,JVBERi0="],
    ["URL-safe alphabet", "data:application/pdf;base64,JVBE_i0-"],
  ])("rejects %s with invalid_data_url and the docs/product.md §5 message", (_label, input) => {
    const err = (() => {
      try {
        decodeDataUrl(input);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).code).toBe("invalid_data_url");
    expect((err as PdfError).message).toBe("Failed to read file");
  });

  it("rejects an oversized payload before decoding it", () => {
    const url = `data:application/pdf;base64,${Buffer.alloc(3000).toString("base64")}`;
    expect(() => decodeDataUrl(url, { maxBytes: 2999 })).toThrow(PdfError);
    expect(decodeDataUrl(url, { maxBytes: 3000 }).bytes).toHaveLength(3000);
  });
});
