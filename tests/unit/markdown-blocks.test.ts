import { describe, expect, it } from "vitest";
import { splitBlocks } from "@/lib/browser/chat/markdown-blocks";

describe("splitBlocks (a streaming answer re-renders only its last block)", () => {
  it("splits at blank lines", () => {
    expect(splitBlocks("# Title\n\nA paragraph\nwith two lines.\n\n- a\n- b")).toEqual(["# Title", "A paragraph\nwith two lines.", "- a\n- b"]);
  });

  it("never splits inside a fenced code block or a $$ math block", () => {
    const code = "```js\nconst a = 1;\n\nconst b = 2;\n```";
    const math = "$$\na^2\n\n+ b^2\n$$";
    expect(splitBlocks(`Intro\n\n${code}\n\n${math}\n\nEnd`)).toEqual(["Intro", code, math, "End"]);
    // An unfinished fence (still streaming) keeps everything after it in one block.
    expect(splitBlocks("Intro\n\n~~~\nx\n\ny")).toEqual(["Intro", "~~~\nx\n\ny"]);
  });

  it("keeps an indented continuation with its list item", () => {
    expect(splitBlocks("1. first\n\n   more of first\n2. second\n\nAfter")).toEqual(["1. first\n\n   more of first\n2. second", "After"]);
  });

  it("handles empty text and one-line $$ math", () => {
    expect(splitBlocks("")).toEqual([]);
    expect(splitBlocks("$$x$$\n\ny")).toEqual(["$$x$$", "y"]);
  });
});
