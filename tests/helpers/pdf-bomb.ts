/**
 * PDF decompression bombs for tests (docs/issues.md #10, #22): one-page PDFs whose content stream is about
 * 1 MB of Flate data that inflates to `inflatedBytes` (default 1 GiB) of spaces, plus one line of real text
 * so that a parser which survives it would find something. The variants name or reach the Flate filter in
 * the ways a scan of the raw bytes misses (docs/issues.md #22): an escaped name, a filter array behind another
 * filter, an indirect reference, and a reference into a compressed object stream. Generated on first use (a
 * few seconds: the deflate is streamed, never held inflated in memory) and cached in the OS temp folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDeflate, deflateSync } from "node:zlib";

const CHUNK = 1024 * 1024;

async function deflatedSpaces(inflatedBytes: number): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `hush-flate-spaces-${inflatedBytes}.bin`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const data = await streamDeflate(inflatedBytes);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
  return data;
}

async function streamDeflate(inflatedBytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const head = Buffer.from("BT /F1 12 Tf 72 720 Td (Hello from the bomb) Tj ET\n", "latin1");
  deflate.write(head);
  const spaces = Buffer.alloc(CHUNK, 0x20);
  for (let written = head.length; written < inflatedBytes; written += CHUNK) {
    const piece = Math.min(CHUNK, inflatedBytes - written);
    if (!deflate.write(piece === CHUNK ? spaces : spaces.subarray(0, piece))) {
      await new Promise((r) => deflate.once("drain", r));
    }
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** Assemble a minimal PDF around one Flate content stream, with a correct xref table. */
export function pdfWithContentStream(stream: Buffer, options: { flate?: boolean } = {}): Buffer {
  const filter = options.flate === false ? "" : " /Filter /FlateDecode";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n", "latin1")];
  const offsets: number[] = [];
  let size = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(size);
    const chunk =
      body === null
        ? Buffer.concat([
            Buffer.from(`${i + 1} 0 obj\n<< /Length ${stream.length}${filter} >>\nstream\n`, "latin1"),
            stream,
            Buffer.from("\nendstream\nendobj\n", "latin1"),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, "latin1");
    parts.push(chunk);
    size += chunk.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`;
  parts.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(parts);
}

/** The bomb's bytes (about 1 MB for the default 1 GiB): the filter named plainly, /Filter /FlateDecode. */
export async function pdfBomb(inflatedBytes = 1024 * 1024 * 1024): Promise<Buffer> {
  return pdfWithContentStream(await deflatedSpaces(inflatedBytes));
}

/** The ways of reaching the Flate filter that a scan of the raw bytes misses (docs/issues.md #22). */
export const BOMB_VARIANTS = ["escaped-name", "filter-array", "indirect-filter", "object-stream"] as const;
export type BombVariant = (typeof BOMB_VARIANTS)[number];

/**
 * A bomb whose content stream's filter is reached as `variant` says:
 * - escaped-name: `/Filter /Flat#65Decode` (#65 is "e"; PDF names may escape any byte)
 * - filter-array: `/Filter [/AHx /FlateDecode]`, the Flate data hex-encoded first
 * - indirect-filter: `/Filter 6 0 R`, object 6 being the name /FlateDecode
 * - object-stream: `/Filter 6 0 R`, object 6 stored inside a Flate-compressed object stream (PDF 1.5)
 */
export async function pdfBombVariant(variant: BombVariant, inflatedBytes = 1024 * 1024 * 1024): Promise<Buffer> {
  const flate = await deflatedSpaces(inflatedBytes);
  const content = (filter: string, data: Buffer) =>
    Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter ${filter} >>\nstream\n`, "latin1"), data, Buffer.from("\nendstream", "latin1")]);
  const page = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>";
  const head: PdfObject[] = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page];
  const font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
  switch (variant) {
    case "escaped-name":
      return assemblePdf([...head, content("/Flat#65Decode", flate), font]);
    case "filter-array":
      return assemblePdf([...head, content("[/AHx /FlateDecode]", Buffer.from(flate.toString("hex") + ">", "latin1")), font]);
    case "indirect-filter":
      return assemblePdf([...head, content("6 0 R", flate), font, "/FlateDecode"]);
    case "object-stream": {
      const objects = "6 0 /FlateDecode";
      const packed = deflateSync(Buffer.from(objects, "latin1"));
      const objStm = Buffer.concat([
        Buffer.from(`<< /Type /ObjStm /N 1 /First 4 /Length ${packed.length} /Filter /FlateDecode >>\nstream\n`, "latin1"),
        packed,
        Buffer.from("\nendstream", "latin1"),
      ]);
      return assemblePdf([...head, content("6 0 R", flate), font, { inObjectStream: 7, index: 0 }, objStm]);
    }
  }
}

/** An object's body (what goes between "N 0 obj" and "endobj"), or its place inside an object stream. */
type PdfObject = string | Buffer | { inObjectStream: number; index: number };

/**
 * A PDF 1.5 file of `objects` (object i + 1 is objects[i]; object 1 is the catalog) with a cross-reference
 * stream, which can point into object streams.
 */
function assemblePdf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.5\n%\xE2\xE3\xCF\xD3\n", "latin1")];
  let size = parts[0]!.length;
  const entries: Buffer[] = [entry(0, 0, 0xffff)];
  objects.forEach((body, i) => {
    if (typeof body === "object" && !Buffer.isBuffer(body)) {
      entries.push(entry(2, body.inObjectStream, body.index));
      return;
    }
    entries.push(entry(1, size, 0));
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), Buffer.from(body as string | Buffer), Buffer.from("\nendobj\n", "latin1")]);
    parts.push(chunk);
    size += chunk.length;
  });
  const xrefNum = objects.length + 1;
  entries.push(entry(1, size, 0));
  const table = Buffer.concat(entries);
  parts.push(
    Buffer.from(`${xrefNum} 0 obj\n<< /Type /XRef /Size ${xrefNum + 1} /W [1 4 2] /Root 1 0 R /Length ${table.length} >>\nstream\n`, "latin1"),
    table,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${size}\n%%EOF\n`, "latin1"),
  );
  return Buffer.concat(parts);
}

/** One cross-reference stream entry, /W [1 4 2]: type, field 2 (offset or object stream), field 3. */
function entry(type: number, field2: number, field3: number): Buffer {
  const b = Buffer.alloc(7);
  b.writeUInt8(type, 0);
  b.writeUInt32BE(field2, 1);
  b.writeUInt16BE(field3, 5);
  return b;
}
