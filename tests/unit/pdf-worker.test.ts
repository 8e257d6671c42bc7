import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PdfWorkerPool } from "@/lib/server/pdf/pool";
import { PdfError } from "@/lib/shared/pdf/errors";

/**
 * The server's PDF worker thread (lib/server/pdf, docs/issues.md #39) and its memory: it reads without loading
 * pdf.js's Node canvas (skia), and a failed read leaves no worker behind. Its own file, so that no other test has
 * loaded pdf.js on this process's main thread (the canvas would then be in the process for another reason).
 */
const fixture = (name: string) => readFileSync(path.join(__dirname, "../fixtures", name)).toString("base64");
const LIMITS = { maxBytes: 10 << 20, maxPages: 100, maxChars: 60_000, timeoutMs: 15_000, maxInflatedBytes: 50 << 20 };
const pool = new PdfWorkerPool();
afterAll(() => pool.close());

/** Native modules mapped into this process (workers included). */
const nativeModules = () =>
  readFileSync("/proc/self/maps", "utf8")
    .split("\n")
    .map((line) => line.split(/\s+/).at(-1) ?? "")
    .filter((file) => file.endsWith(".node"));

describe("the server's PDF worker", () => {
  it("reads a PDF without loading pdf.js's canvas (skia)", async () => {
    const result = await pool.read(fixture("multipage.pdf"), LIMITS);
    expect(result.pages).toBe(8);
    expect(result.text.length).toBeGreaterThan(1000);
    expect(nativeModules().filter((file) => /canvas|skia/.test(file))).toEqual([]);
    // It stays for the next PDF.
    expect(pool.workers).toBe(1);
  });

  it("retires the worker after a failed read, and the next read starts a fresh one", async () => {
    await expect(pool.read(fixture("corrupt.pdf"), LIMITS)).rejects.toBeInstanceOf(PdfError);
    expect(pool.workers).toBe(0);
    expect((await pool.read(fixture("multipage.pdf"), LIMITS)).pages).toBe(8);
    expect(pool.workers).toBe(1);
  });
});
