import { describe, expect, it } from "vitest";
import { CitationStream, citeSources } from "@/dev/enclave-search";

const sources = [
  { url: "https://example.org/a", title: "A", content: "" },
  { url: "https://example.org/b", title: "B", content: "" },
];

describe("the development enclave's streamed citations", () => {
  it("a [n] split across pieces becomes the same link and annotation as in one piece", () => {
    const whole = citeSources("Chicks [1] and birds [2]. Not [9].", sources);
    const stream = new CitationStream(sources);
    const parts = ["Chicks [", "1] and birds [2", "]", ". Not [9", "]."].map((p) => stream.push(p));
    parts.push(stream.finish());
    expect(parts.map((p) => p.text).join("")).toBe(whole.text);
    expect(parts.flatMap((p) => p.annotations)).toEqual(whole.annotations);
    expect(whole.text).toBe("Chicks [1](https://example.org/a) and birds [2](https://example.org/b). Not [9].");
  });

  it("sources added after the stream began are citable (results of a later search step)", () => {
    const later: typeof sources = [];
    const stream = new CitationStream(later);
    expect(stream.push("Before ").text).toBe("Before ");
    later.push(sources[0]!);
    expect(stream.push("[1] after").text).toBe("[1](https://example.org/a) after");
  });
});
