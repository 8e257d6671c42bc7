import { FileError } from "@/lib/browser/files/errors";

/** Declared uncompressed sizes within `maxInflatedBytes` and word/document.xml present. @throws FileError unreadable | inflate_limit */
export function checkDocxZip(bytes: Uint8Array, maxInflatedBytes: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new FileError("unreadable");
  const entries = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  let total = 0;
  let hasDocument = false;
  const names = new TextDecoder();
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw new FileError("unreadable");
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    // 0xFFFFFFFF: the real size is in a ZIP64 record, more than 4 GiB: far past any limit.
    total += size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
    if (total > maxInflatedBytes) throw new FileError("inflate_limit", { maxBytes: maxInflatedBytes });
    if (names.decode(bytes.subarray(at + 46, at + 46 + nameLength)) === "word/document.xml") hasDocument = true;
    at += 46 + nameLength + extraLength + commentLength;
  }
  if (!hasDocument) throw new FileError("unreadable");
}
