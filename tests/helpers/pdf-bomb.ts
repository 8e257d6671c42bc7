/**
 * A PDF decompression bomb for tests (docs/issues.md #10): a one-page PDF whose content stream is about 1 MB of
 * Flate data that inflates to `inflatedBytes` (default 1 GiB) of spaces, plus one line of real text so
 * that a parser which survives it would find something. Generated on first use (a few seconds: the
 * deflate is streamed, never held inflated in memory) and cached in the OS temp folder, not committed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDeflate } from "node:zlib";

const CHUNK = 1024 * 1024;

async function deflatedSpaces(inflatedBytes: number): Promise<Buffer> {
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

/** The bomb's bytes (about 1 MB for the default 1 GiB). */
export async function pdfBomb(inflatedBytes = 1024 * 1024 * 1024): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `hush-pdf-bomb-${inflatedBytes}.pdf`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const pdf = pdfWithContentStream(await deflatedSpaces(inflatedBytes));
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, pdf);
  fs.renameSync(tmp, file);
  return pdf;
}
