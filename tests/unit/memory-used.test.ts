import { describe, expect, it } from "vitest";
import { addChild, emptyTree, ROOT } from "@/lib/browser/chat/branches";
import { markMemoryUsed } from "@/components/chat/memory-used";
import type { UiMessage } from "@/components/chat/types";

function answered() {
  const asked = addChild(emptyTree<UiMessage>(), ROOT, { role: "user", content: "Hi" });
  const answer = addChild(asked.tree, asked.id, { role: "assistant", content: "Hello" });
  return { userId: asked.id, answerId: answer.id, result: { tree: answer.tree, suggestion: null } };
}

describe("markMemoryUsed (docs/issues.md #56)", () => {
  it("flags the answer of a turn that carried memories", () => {
    const { userId, answerId, result } = answered();
    const marked = markMemoryUsed(result, userId, ["Likes tea"]);
    expect(marked.tree.nodes[answerId]!.message!.memoryUsed).toBe(true);
    expect(marked.tree.nodes[userId]!.message!.memoryUsed).toBeUndefined();
    expect(marked.suggestion).toBeNull();
  });

  it("leaves the answer alone when memory was off or there was nothing to send", () => {
    const { userId, answerId, result } = answered();
    expect(markMemoryUsed(result, userId, undefined)).toBe(result);
    expect(markMemoryUsed(result, userId, []).tree.nodes[answerId]!.message!.memoryUsed).toBeUndefined();
  });
});
