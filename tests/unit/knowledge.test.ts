import { describe, expect, it } from "vitest";
import { PASSAGE_MAX_CHARS, PASSAGE_TARGET_CHARS, splitPassages } from "@/lib/browser/knowledge/passages";
import { passageSourceName, type FilePassage } from "@/lib/browser/knowledge/file-passage";
import { bm25Retriever, passagesForTurn, terms } from "@/lib/browser/knowledge/retrieval";

/** Project knowledge (docs/issues.md #41): splitting a file into passages, and BM25 ranking within a budget. */

const filler = (i: number) => `Paragraph ${i} talks about ordinary office matters, meetings, schedules and the weather in general terms.`;

describe("splitPassages", () => {
  it("keeps whole paragraphs together up to the target size, in order, and loses no text", () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => filler(i));
    const passages = splitPassages(paragraphs.join("\n\n"));
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) expect(p.text.length).toBeLessThanOrEqual(PASSAGE_TARGET_CHARS + 200);
    // Every paragraph is in exactly one passage, whole, in order.
    const rejoined = passages.map((p) => p.text).join("\n\n");
    expect(rejoined).toBe(paragraphs.join("\n\n"));
    expect(passages.map((p) => p.section)).toEqual(passages.map((_, i) => `part ${i + 1}`));
  });

  it("labels passages with the Markdown heading above them", () => {
    const text = `# Intro\n\nHello there.\n\n## Pricing\n\nThe Pro plan costs money.\n\nMore on prices.\n\n## Support\n\nWrite to us.`;
    const passages = splitPassages(text);
    expect(passages.map((p) => p.section)).toEqual(["section “Intro”", "section “Pricing”", "section “Support”"]);
    expect(passages[1]!.text).toContain("The Pro plan costs money.");
    expect(passages[1]!.text).toContain("More on prices.");
  });

  it("cuts a paragraph longer than the maximum at a sentence end, never above the maximum", () => {
    const long = Array.from({ length: 80 }, (_, i) => `Sentence number ${i} is here.`).join(" ");
    expect(long.length).toBeGreaterThan(PASSAGE_MAX_CHARS);
    const passages = splitPassages(long);
    expect(passages.length).toBeGreaterThan(1);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(p.text.endsWith(".")).toBe(true);
    }
  });

  it("labels pages when the text comes one string per page, and skips empty text", () => {
    expect(splitPassages(["first page text", "", "third page text"]).map((p) => p.section)).toEqual(["page 1", "page 3"]);
    expect(splitPassages("  \n\n  ")).toEqual([]);
  });
});

const passage = (fileName: string, section: string, text: string): FilePassage => ({ fileName, section, text });

describe("bm25Retriever", () => {
  const corpus = [
    passage("a.txt", "part 1", "The quarterly budget review covers spending on travel and equipment."),
    passage("a.txt", "part 2", "Our office cat is called Biscuit and likes the sunny window."),
    passage("b.md", "section “Garden”", "Tomatoes need full sun; water the tomatoes deeply twice a week."),
    passage("b.md", "section “Bees”", "The bees forage on lavender and clover near the garden."),
  ];

  it("ranks the passage holding the query's rare terms first, and leaves out passages sharing no term", () => {
    const r = bm25Retriever(corpus);
    const ranked = r.rank("What is the office cat called?", 10) as FilePassage[];
    expect(ranked[0]!.text).toContain("Biscuit");
    expect(ranked).toHaveLength(1);
    expect((r.rank("how often should I water tomatoes", 10) as FilePassage[])[0]!.section).toBe("section “Garden”");
    expect(r.rank("zzz unknown words", 10)).toEqual([]);
  });

  it("scores repeated terms higher but saturates, and a rarer term outweighs a common one", () => {
    const docs = [
      passage("x", "1", "garden garden garden garden garden garden"),
      passage("x", "2", "garden lavender"),
      passage("x", "3", "garden path"),
      passage("x", "4", "garden shed"),
    ];
    const ranked = bm25Retriever(docs).rank("garden lavender", 4) as FilePassage[];
    expect(ranked[0]!.section).toBe("2");
    expect(ranked).toHaveLength(4);
  });

  it("ignores case, punctuation and stop words", () => {
    expect(terms("The CAT, and the Dog's bowl!")).toEqual(["cat", "dog", "bowl"]);
    const ranked = bm25Retriever(corpus).rank("BISCUIT!!!", 1) as FilePassage[];
    expect(ranked[0]!.text).toContain("Biscuit");
  });
});

describe("passagesForTurn", () => {
  it("keeps the best passages within the token budget and the passage cap, best first", async () => {
    const big = "lavender ".repeat(2000);
    const docs = [passage("f", "big", big), ...Array.from({ length: 20 }, (_, i) => passage("f", `p${i}`, `lavender note ${i}`))];
    const chosen = await passagesForTurn(bm25Retriever(docs), "lavender", 1000, 5);
    expect(chosen).toHaveLength(5);
    expect(chosen.map((p) => p.section)).not.toContain("big");
    expect(passageSourceName(chosen[0]!)).toMatch(/^f, p\d+$/);
  });
});
