import mammoth from "mammoth";
import { describe, expect, it } from "vitest";
import { checkDocxZip } from "@/lib/browser/files/docx/zip-check";
import { FileError } from "@/lib/browser/files/errors";
import { acceptFor, fileKind } from "@/lib/browser/files/kinds";
import { imageNotSupportedMessage } from "@/lib/server/chat/turn";
import { decodeText } from "@/lib/browser/files/read-text";
import { NOT_PDF_MESSAGE } from "@/lib/shared/pdf/errors";
import { makeDocx } from "../helpers/docx";

/** More file types (docs/issues.md #23): which files are read as what, text decoding limits, the .docx zip check. */
describe("attachments other than PDF", () => {
  it("offers images in the picker only for a model that reads them; the server refuses with the browser's sentence", () => {
    expect(acceptFor(false).split(",")).not.toContain(".png");
    expect(acceptFor(false).split(",")).toContain(".pdf");
    expect(acceptFor(true).split(",")).toEqual(expect.arrayContaining([".pdf", ".png", ".jpg", ".jpeg", ".webp", ".gif", "image/png"]));
    expect(new FileError("image_not_supported", { modelTitle: "Basic" }).message).toBe(imageNotSupportedMessage("Basic"));
  });

  it("tells the kinds apart by name first, then by type", () => {
    expect(fileKind({ name: "notes.txt", type: "text/plain" })).toBe("text");
    expect(fileKind({ name: "main.py", type: "" })).toBe("text");
    expect(fileKind({ name: "data.csv", type: "application/vnd.ms-excel" })).toBe("text");
    expect(fileKind({ name: "config.json", type: "application/json" })).toBe("text");
    expect(fileKind({ name: "Dockerfile", type: "" })).toBe("text");
    expect(fileKind({ name: "report.docx", type: "" })).toBe("docx");
    expect(fileKind({ name: "photo.PNG", type: "image/png" })).toBe("image");
    expect(fileKind({ name: "photo.pdf", type: "application/pdf" })).toBe("pdf");
    expect(fileKind({ name: "archive.zip", type: "application/zip" })).toBeNull();
    expect(fileKind({ name: "old.doc", type: "application/msword" })).toBeNull();
    expect(new FileError("unsupported").message).toBe(NOT_PDF_MESSAGE);
  });

  it("decodes UTF-8 (BOM dropped), keeps at most maxChars, refuses binary and empty files", () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("héllo, wörld")]);
    expect(decodeText(bom, 100)).toEqual({ text: "héllo, wörld", truncated: false });
    expect(decodeText(new TextEncoder().encode("abcdef"), 3)).toEqual({ text: "abc", truncated: true });
    expect(() => decodeText(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), 100)).toThrow(expect.objectContaining({ code: "not_text" }));
    expect(() => decodeText(new TextEncoder().encode(" \n\t "), 100)).toThrow(expect.objectContaining({ code: "empty" }));
  });

  it("opens a Word document within the inflate limit and refuses a declared bomb or a zip without a document", async () => {
    const docx = await makeDocx(["Quarterly plan for the otter survey.", "Second paragraph."]);
    expect(() => checkDocxZip(docx, 1024 * 1024)).not.toThrow();
    expect((await mammoth.extractRawText({ buffer: docx })).value).toContain("Quarterly plan for the otter survey.");
    expect(() => checkDocxZip(docx, 100)).toThrow(expect.objectContaining({ code: "inflate_limit" }));
    expect(() => checkDocxZip(new TextEncoder().encode("not a zip at all, just text"), 1024)).toThrow(expect.objectContaining({ code: "unreadable" }));
    const JSZip = (await import("jszip")).default;
    const other = await new JSZip().file("hello.txt", "hi").generateAsync({ type: "uint8array" });
    expect(() => checkDocxZip(other, 1024)).toThrow(expect.objectContaining({ code: "unreadable" }));
  });
});
