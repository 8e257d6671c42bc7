import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { afterAll, describe, expect, it } from "vitest";
import { closeExtractWorkers, extractPage, ReadPageError } from "@/lib/server/read-page";
import { extractPool, QUEUE_MAX } from "@/lib/server/read-page/extract-pool";
import type { FetchedPage } from "@/lib/server/read-page/fetch";
import { articlePage } from "../helpers/article-page";

/**
 * docs/issues.md #51: an HTML page's extraction runs in a worker pool (lib/server/read-page/extract-pool.ts), off the
 * request thread. What it gives is what the in-thread extraction gave (Readability's article serialised, parsed
 * again and turned whole into Markdown, then cut); a page past the time limit loses its worker; reads beyond the
 * pool's size wait and all finish.
 */
afterAll(() => closeExtractWorkers());

/** The extraction as it was on the request thread, whole: the reference. */
function before(html: string, maxChars: number): { title: string; text: string; truncated: boolean } {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript", "iframe", "template", "form"]);
  const { document } = parseHTML(html);
  const pageTitle = document.title ?? "";
  const article = new Readability(document as unknown as Document).parse();
  let title = pageTitle.trim();
  let text: string;
  if (article?.content) {
    const { document: fragment } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    title = (article.title ?? pageTitle).trim();
    text = turndown.turndown(fragment.body as unknown as HTMLElement);
  } else {
    text = turndown.turndown(parseHTML(html).document.body as unknown as HTMLElement);
  }
  text = text.replace(/\n{3,}/g, "\n\n").trim();
  return { title, text: text.slice(0, maxChars), truncated: text.length > maxChars };
}

const fetched = (html: string, contentType = "text/html; charset=utf-8"): FetchedPage => ({
  url: new URL("https://example.org/article"),
  contentType,
  bytes: Buffer.from(html),
  cut: false,
});

const SHORT = "<html><head><title>Short</title></head><body><p>Just <b>this</b>.</p><script>SCRIPT</script></body></html>";
// A code block across the cut: its fence is chosen from its whole content.
const FENCED = `<html><body><article><h1>Code</h1><p>${"Words of an article about code. ".repeat(40)}</p><pre><code>${"x = 1\n".repeat(400)}\`\`\`\`\n</code></pre><p>${"After. ".repeat(200)}</p></article></body></html>`;

describe("page extraction in the worker pool", () => {
  it("gives what the in-thread extraction gave: title, the text's first READ_PAGE_MAX_CHARS characters, whether it was cut", async () => {
    const pages = [articlePage(1 << 20), articlePage(300_000, 7), articlePage(40_000, 3), SHORT, FENCED];
    for (const html of pages) {
      for (const maxChars of [20_000, 500, 2_000_000]) {
        const got = await extractPage(fetched(html), maxChars);
        expect(got, `${html.length} bytes, ${maxChars} characters`).toEqual(before(html, maxChars));
      }
    }
    // The charset is the Content-Type's, decoded in the worker.
    const latin1 = Buffer.from("<html><body><p>Caf\u00e9 cr\u00e8me.</p></body></html>", "latin1");
    expect((await extractPage({ ...fetched(""), bytes: latin1, contentType: "text/html; charset=iso-8859-1" }, 100)).text).toBe("Café crème.");
    // 15 extractions and their references, a 1 MiB page among them: past 30 s on a loaded machine.
  }, 180_000);

  it("a page whose extraction runs past the time limit fails as a timeout and its worker is terminated; the next page reads", async () => {
    const pool = extractPool();
    try {
      const big = new Uint8Array(Buffer.from(articlePage(2 << 20)));
      const started = performance.now();
      const error = await pool.run({ bytes: big, contentType: "text/html", maxChars: 20_000 }, 30).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReadPageError);
      expect((error as ReadPageError).kind).toBe("timeout");
      // Cut at the limit, not when the extraction would have ended (hundreds of milliseconds for 2 MB).
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(pool.workers).toBe(0);
      const short = await pool.run({ bytes: new Uint8Array(Buffer.from(SHORT)), contentType: "text/html", maxChars: 100 }, 10_000);
      expect(short.text).toContain("Just **this**.");
      expect(pool.workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("reads beyond the pool's size wait for a worker and all finish; past the queue's bound a read fails at once", async () => {
    const pool = extractPool(2);
    try {
      const pages = Array.from({ length: 10 }, (_, i) => articlePage(60_000, 100 + i));
      const reads = pages.map((html) => pool.run({ bytes: new Uint8Array(Buffer.from(html)), contentType: "text/html", maxChars: 20_000 }, 20_000));
      expect(pool.workers).toBe(2);
      expect(pool.queued).toBe(8);
      const results = await Promise.all(reads);
      for (const [i, result] of results.entries()) expect(result.title, `page ${i}`).toBe(before(pages[i]!, 20_000).title);
      expect(pool.queued).toBe(0);

      const small = () => pool.run({ bytes: new Uint8Array(Buffer.from(SHORT)), contentType: "text/html", maxChars: 100 }, 20_000);
      const admitted = Array.from({ length: 2 + QUEUE_MAX }, small);
      const refused = await small().catch((e: unknown) => e);
      expect((refused as ReadPageError).kind).toBe("timeout");
      expect((await Promise.all(admitted)).every((r) => r.text.includes("Just **this**."))).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
