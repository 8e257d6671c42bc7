import { describe, expect, it } from "vitest";
import {
  ROOT,
  activePath,
  addChild,
  addSibling,
  deserialize,
  emptyTree,
  fromMessages,
  leafId,
  pathTo,
  serialize,
  switchVersion,
  updateMessage,
  versionOf,
} from "@/lib/browser/chat/branches";

const texts = (tree: Parameters<typeof activePath<string>>[0]) => activePath(tree).map((n) => n.message);

describe("conversation branches (docs/issues.md #9: regenerate and edit-and-resend keep versions)", () => {
  it("holds a linear conversation as its active path", () => {
    const tree = fromMessages(["q1", "a1", "q2", "a2"]);
    expect(texts(tree)).toEqual(["q1", "a1", "q2", "a2"]);
    expect(texts(emptyTree<string>())).toEqual([]);
    expect(leafId(emptyTree<string>())).toBe(ROOT);
  });

  it("regenerate adds a second answer as 2 / 2 and keeps the first switchable", () => {
    const tree = fromMessages(["q1", "a1"]);
    const first = leafId(tree);
    const { tree: regenerated, id } = addSibling(tree, first, "a1 again");
    expect(texts(regenerated)).toEqual(["q1", "a1 again"]);
    expect(versionOf(regenerated, id)).toEqual({ index: 2, count: 2 });
    const back = switchVersion(regenerated, id, -1);
    expect(texts(back)).toEqual(["q1", "a1"]);
    expect(versionOf(back, first)).toEqual({ index: 1, count: 2 });
    // Clamped at the ends: no third version appears.
    expect(switchVersion(back, first, -1)).toBe(back);
    expect(texts(switchVersion(back, first, 5))).toEqual(["q1", "a1 again"]);
    // The input tree is never changed.
    expect(texts(tree)).toEqual(["q1", "a1"]);
  });

  it("edit-and-resend continues from the edited message and keeps the old branch with its answers", () => {
    const tree = fromMessages(["q1", "a1", "q2", "a2", "q3", "a3"]);
    const q2 = activePath(tree)[2]!.id;
    const edited = addSibling(tree, q2, "q2 edited");
    const answered = addChild(edited.tree, edited.id, "a2 to edited").tree;
    expect(texts(answered)).toEqual(["q1", "a1", "q2 edited", "a2 to edited"]);
    expect(pathTo(answered, edited.id)).toEqual(["q1", "a1", "q2 edited"]);
    const old = switchVersion(answered, edited.id, -1);
    expect(texts(old)).toEqual(["q1", "a1", "q2", "a2", "q3", "a3"]);
    // Switching back finds the edited branch's own answer again.
    expect(texts(switchVersion(old, q2, 1))).toEqual(["q1", "a1", "q2 edited", "a2 to edited"]);
  });

  it("a version deep in an old branch is remembered when switching away and back", () => {
    let tree = fromMessages(["q1", "a1", "q2", "a2"]);
    const a2 = leafId(tree);
    tree = addSibling(tree, a2, "a2 v2").tree;
    tree = switchVersion(tree, leafId(tree), -1); // a2 v1 active
    const q1 = activePath(tree)[0]!.id;
    tree = addSibling(tree, q1, "q1 edited").tree;
    tree = switchVersion(tree, leafId(tree), -1);
    expect(texts(tree)).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("updates a message in place and round-trips through its wire form", () => {
    const tree = fromMessages(["q1", "a1"]);
    const updated = updateMessage(tree, leafId(tree), "a1 from server");
    expect(texts(updated)).toEqual(["q1", "a1 from server"]);
    expect(texts(deserialize<string>(serialize(updated)))).toEqual(["q1", "a1 from server"]);
    expect(() => deserialize("{}")).toThrow("Not a conversation tree");
    expect(() => updateMessage(tree, ROOT, "x")).toThrow();
    expect(() => addChild(tree, "nope", "x")).toThrow("No message nope");
  });
});
