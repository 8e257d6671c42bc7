import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/**
 * An HTML page's main text as Markdown (docs/issues.md #51): @mozilla/readability over a linkedom DOM, turndown
 * over the article Readability keeps. Run in the extraction worker (./extract.worker.ts, started by
 * ./extract-pool.ts), so it imports nothing server-only; nothing here logs.
 */

/** Elements whose content carries no text for the model: turndown drops them, the prefix count skips them. */
const REMOVED = ["script", "style", "noscript", "iframe", "template", "form"] as const;
const REMOVED_TAGS = new Set<string>(REMOVED.map((t) => t.toUpperCase()));
/**
 * Characters of text kept past the caller's `maxChars` before the rest of the tree is dropped: what is cut must
 * lie wholly after the characters the caller keeps, whatever turndown does at the cut (spaces, closing marks).
 */
const CUT_MARGIN = 1000;

// One converter for every page: turndown keeps no per-page state.
const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.remove([...REMOVED]);

/**
 * An HTML page's title and main text as Markdown: Readability's article, else the whole body.
 * @param maxChars the characters the caller keeps at most: the tree is cut once its text is surely longer
 *   (CUT_MARGIN past it), so the first `maxChars` characters and whether there are more are as for the whole page
 * @returns `text` before whitespace is tidied and cut (the caller's ./extract.ts does both)
 */
export function htmlToMarkdown(html: string, maxChars = Infinity): { title: string; text: string } {
  const { document } = parseHTML(html);
  const pageTitle = document.title ?? "";
  // The article as Readability's element itself: serialising it to HTML and parsing that again costs as much
  // as a sixth of Readability's own work on a long page, for the same tree.
  const article = new Readability<Node>(document, { serializer: (node) => node }).parse();
  const content = article?.content as HTMLElement | null | undefined;
  if (article && content?.hasChildNodes()) {
    return { title: (article.title ?? pageTitle).trim(), text: turndown.turndown(keepFirstChars(content, maxChars)) };
  }
  // Readability found no article (a short page, a list): the body as it is, without its scripts.
  const { document: whole } = parseHTML(html);
  const body: HTMLElement | null = whole.body;
  return { title: pageTitle.trim(), text: body ? turndown.turndown(keepFirstChars(body, maxChars)) : "" };
}

/**
 * `root` with everything after the first text node that brings its text past `maxChars` + CUT_MARGIN visible
 * characters removed (in place). Turndown writes every visible character of a text node it keeps (escapes only
 * add), so the Markdown of what stays is at least that long; a cut inside `pre` or `code` moves to its end, as
 * their fences are chosen from their whole content.
 */
function keepFirstChars(root: HTMLElement, maxChars: number): HTMLElement {
  if (!Number.isFinite(maxChars)) return root;
  const limit = maxChars + CUT_MARGIN;
  let count = 0;
  let node: Node | null = root.firstChild;
  while (node) {
    if (node.nodeType === 3) {
      count += (node.nodeValue ?? "").replace(/\s+/g, "").length;
      if (count > limit) break;
    }
    const skip = node.nodeType === 1 && REMOVED_TAGS.has((node as Element).tagName.toUpperCase());
    node = !skip && node.firstChild ? node.firstChild : next(node, root);
  }
  if (!node) return root;
  let cut: Node = node;
  for (let up = node.parentNode; up && up !== root; up = up.parentNode) {
    const tag = (up as Element).tagName?.toUpperCase();
    if (tag === "PRE" || tag === "CODE") cut = up;
  }
  for (let at: Node | null = cut; at && at !== root; at = at.parentNode) {
    while (at.nextSibling) at.parentNode!.removeChild(at.nextSibling);
  }
  return root;
}

/** The node after `node`'s subtree in document order, within `root`; null at its end. */
function next(node: Node, root: Node): Node | null {
  for (let at: Node | null = node; at && at !== root; at = at.parentNode) {
    if (at.nextSibling) return at.nextSibling;
  }
  return null;
}
