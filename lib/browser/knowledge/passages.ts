// A passage is a run of whole paragraphs of about PASSAGE_TARGET_CHARS, labelled by its heading, page or "part N".

export interface Passage {
  section: string;
  text: string;
}

export const PASSAGE_TARGET_CHARS = 1200;
export const PASSAGE_MAX_CHARS = 2000;

export function splitPassages(text: string | readonly string[]): Passage[] {
  const pages = typeof text === "string" ? [text] : text;
  const out: Passage[] = [];
  pages.forEach((page, pageIndex) => {
    let heading: string | null = null;
    let buffer: string[] = [];
    let size = 0;
    const label = () => (pages.length > 1 ? `page ${pageIndex + 1}` : heading ? `section “${heading}”` : `part ${out.length + 1}`);
    const flush = () => {
      const body = buffer.join("\n\n").trim();
      if (body) out.push({ section: label(), text: body });
      buffer = [];
      size = 0;
    };
    for (const raw of page.split(/\n\s*\n/)) {
      const paragraph = raw.trim();
      if (!paragraph) continue;
      const h = /^#{1,6}\s+(.+)$/m.exec(paragraph.split("\n")[0] ?? "");
      if (h && pages.length === 1) {
        flush();
        heading = h[1]!.trim().slice(0, 80);
      }
      for (const piece of cutLong(paragraph)) {
        if (size > 0 && size + piece.length > PASSAGE_TARGET_CHARS) flush();
        buffer.push(piece);
        size += piece.length + 2;
      }
    }
    flush();
  });
  return out;
}

function cutLong(paragraph: string): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > PASSAGE_MAX_CHARS) {
    const window = rest.slice(0, PASSAGE_MAX_CHARS);
    let at = Math.max(window.lastIndexOf(". "), window.lastIndexOf("\n"));
    if (at < PASSAGE_MAX_CHARS / 2) at = window.lastIndexOf(" ");
    if (at < PASSAGE_MAX_CHARS / 2) at = PASSAGE_MAX_CHARS - 1;
    pieces.push(rest.slice(0, at + 1).trim());
    rest = rest.slice(at + 1);
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces;
}
