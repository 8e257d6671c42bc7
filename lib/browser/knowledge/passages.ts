/**
 * Splitting a project file's text into passages (docs/issues.md #41), pure and browser-safe. A passage is a run of
 * whole paragraphs of about PASSAGE_TARGET_CHARS (a paragraph longer than PASSAGE_MAX_CHARS is cut at a sentence
 * or a space), labelled with where it is: the nearest Markdown heading above it, the page when the text comes as
 * one string per page, else "part N".
 */

/** One passage: where it is in its file, and its text. */
export interface Passage {
  /** "page 3", "section “Pricing”" or "part 12". */
  section: string;
  text: string;
}

export const PASSAGE_TARGET_CHARS = 1200;
export const PASSAGE_MAX_CHARS = 2000;

/** Split `text` (one string, or one string per page) into passages, in order. */
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

/** A paragraph in pieces of at most PASSAGE_MAX_CHARS, cut after a sentence, else at a space. */
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
