import { describe, expect, it } from "vitest";
import MiniSearch from "minisearch";
import { ChatSearchIndex, highlight, lookUpTermsOncePerDocument, SEARCH_OPTIONS, snippetOf, tokenize, type Segment } from "@/lib/browser/chat/search";

/** Chat search over decrypted chats (docs/issues.md #9 History), on the real minisearch index. */
const marked = (segments: Segment[] | null) => (segments ?? []).map((s) => (s.match ? `[${s.text}]` : s.text)).join("");

function sample() {
  const index = new ChatSearchIndex();
  index.upsert({ chat_id: "a", title: "Trip to Lisbon", messages: ["Where should I eat in Lisbon?", "Try the pastéis de nata in Belém."], last_updated: "2026-11-20T10:00:00Z" });
  index.upsert({ chat_id: "b", title: "Tax questions", messages: ["How do I file a return?", "The xylophone deadline is 31 July."], last_updated: "2026-11-21T10:00:00Z" });
  index.upsert({ chat_id: "c", title: null, messages: ["Write a haiku about Lisbon trams"], last_updated: "2026-11-22T10:00:00Z" });
  return index;
}

describe("ChatSearchIndex", () => {
  it("finds a word that is only in a message body, with a highlighted snippet", () => {
    const [hit, ...rest] = sample().search("xylophone");
    expect(rest).toEqual([]);
    expect(hit!.chat_id).toBe("b");
    expect(marked(hit!.title)).toBe("Tax questions");
    expect(marked(hit!.snippet)).toBe("The [xylophone] deadline is 31 July.");
  });

  it("matches titles and messages, as prefixes and case-insensitively, title hits first", () => {
    const hits = sample().search("LISB");
    expect(hits.map((h) => h.chat_id)).toEqual(["a", "c"]);
    expect(marked(hits[0]!.title)).toBe("Trip to [Lisbon]");
    expect(marked(hits[0]!.snippet)).toBe("Where should I eat in [Lisbon]?");
    // An untitled chat shows "Untitled Chat", never highlighted.
    expect(marked(hits[1]!.title)).toBe("Untitled Chat");
  });

  it("needs every word, tolerates a typo in a longer word, and finds nothing for an empty query", () => {
    const index = sample();
    expect(index.search("lisbon trams").map((h) => h.chat_id)).toEqual(["c"]);
    expect(index.search("xylophnoe").map((h) => h.chat_id)).toEqual(["b"]);
    expect(index.search("   ")).toEqual([]);
    expect(index.search("zebra")).toEqual([]);
  });

  it("follows saves, renames and deletions, and leaves out excluded chats", () => {
    const index = sample();
    index.upsert({ chat_id: "c", title: null, messages: ["Write a haiku about Lisbon trams", "Yellow tram climbs the hill"], last_updated: "2026-11-22T11:00:00Z" });
    expect(index.search("yellow").map((h) => h.chat_id)).toEqual(["c"]);
    index.rename("b", "Accounting with a quokka");
    expect(index.search("quokka").map((h) => h.chat_id)).toEqual(["b"]);
    expect(index.search("tax")).toEqual([]);
    expect(index.search("lisbon", { exclude: new Set(["a"]) }).map((h) => h.chat_id)).toEqual(["c"]);
    index.remove("a");
    expect(index.search("belém")).toEqual([]);
    expect(index.size).toBe(2);
    index.remove("nope");
    expect(index.size).toBe(2);
  });
});

describe("the index's speed-ups keep MiniSearch's index", () => {
  const SEPARATOR = /[\n\r\p{Z}\p{P}]+/u;

  it("splits words as MiniSearch's default separator does, ASCII or not", () => {
    for (let c = 0; c < 128; c++) {
      const text = `a${String.fromCharCode(c)}b`;
      expect(tokenize(text), `character ${c}`).toEqual(text.split(SEPARATOR));
    }
    for (const text of ["Hello, world! (it's) 1+1=2 — done…", "tab\there|pipe~tilde$dollar", "Belém: pastéis «de» nata", "x\u00a0y\u2028z", ""]) {
      expect(tokenize(text)).toEqual(text.split(SEPARATOR));
    }
  });

  it("builds, replaces and discards to the same serialized index as MiniSearch alone", () => {
    type Doc = { id: string; title: string; body: string };
    const plain = new MiniSearch<Doc>(SEARCH_OPTIONS);
    const fast = lookUpTermsOncePerDocument(new MiniSearch<Doc>(SEARCH_OPTIONS));
    const words = "the cat sat on the mat and the cat ran to Lisbon, where the café served café au lait".split(" ");
    let seed = 3;
    const pick = () => words[(seed = (seed * 48271) % 2147483647) % words.length]!;
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, title: `${pick()} ${pick()}`, body: Array.from({ length: 60 }, pick).join(" ") }));
    for (const mini of [plain, fast]) {
      mini.addAll(docs);
      mini.replace({ id: "c3", title: "the cat", body: "cat cat cat mat" });
      mini.discard("c7");
      mini.add({ id: "c7", title: "", body: "the the café" });
    }
    expect(JSON.stringify(fast.toJSON())).toBe(JSON.stringify(plain.toJSON()));
    expect(fast.search("cat lisb")).toEqual(plain.search("cat lisb"));
    // It did take the faster path: addTerm is the instance's own, not MiniSearch's.
    expect(Object.hasOwn(fast, "addTerm")).toBe(true);
  });
});

describe("highlight and snippetOf", () => {
  it("marks whole words only, keeps punctuation and text as given (React renders it as text)", () => {
    expect(marked(highlight("Cats, cat-like (“cats”)!", new Set(["cats"])))).toBe("[Cats], cat-like (“[cats]”)!");
  });

  it("cuts a long message around the first hit, at word boundaries, with ellipses", () => {
    const long = `${"alpha ".repeat(30)}needle ${"omega ".repeat(40)}`;
    const s = marked(snippetOf([long], new Set(["needle"])));
    expect(s.startsWith("…alpha")).toBe(true);
    expect(s).toContain("[needle]");
    expect(s.endsWith("omega…")).toBe(true);
    expect(s.length).toBeLessThan(200);
    expect(snippetOf(["nothing here"], new Set(["needle"]))).toBeNull();
  });
});
