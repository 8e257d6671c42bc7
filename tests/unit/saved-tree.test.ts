import { describe, expect, it } from "vitest";
import { addChild, addSibling, fromMessages, serialize, versionOf } from "@/lib/browser/chat/branches";
import { hasVersions, planSave, storedPath, treeForSaving, treeFromSaved, type SavedMessage } from "@/lib/browser/chat/saved-tree";

type M = SavedMessage & { file?: { content: string } | null; notice?: string | null };

const base = () =>
  fromMessages<M>([
    { role: "user", content: "q", attachmentName: "a.pdf", file: { content: "data:application/pdf;base64,AAAA" }, notice: "Only part was read" },
    { role: "assistant", content: "a1" },
  ]);

describe("saved versions (docs/issues.md #9)", () => {
  it("stores no tree for a linear chat, and a tree without PDF bytes or notices once there are versions", () => {
    expect(treeForSaving(base())).toBeNull();
    const tree = addSibling(base(), "m2", { role: "assistant", content: "a2" }).tree;
    expect(hasVersions(tree)).toBe(true);
    const wire = treeForSaving(tree)!;
    expect(wire).not.toContain("base64");
    expect(wire).not.toContain("Only part");
    expect(wire).toContain("a.pdf");
    const back = treeFromSaved(wire, [
      { role: "user", content: "q" },
      { role: "assistant", content: "a2" },
    ]);
    expect(versionOf(back, "m3")).toEqual({ index: 2, count: 2 });
  });

  it("falls back to the stored messages when the tree does not match them or is damaged", () => {
    const tree = addSibling(base(), "m2", { role: "assistant", content: "a2" }).tree;
    const messages: SavedMessage[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: "a2" },
      { role: "user", content: "added by another client" },
    ];
    expect(storedPath(treeFromSaved(serialize(tree), messages)).map((n) => n.message.content)).toEqual(["q", "a2", "added by another client"]);
    expect(storedPath(treeFromSaved("{not json", messages)).length).toBe(3);
  });

  it("plans an append, a replace from the changed position, or nothing", () => {
    let tree = base();
    const saved = storedPath(tree).map((n) => n.id);
    expect(planSave(saved, storedPath(tree))).toBeNull();
    const next = addChild(tree, "m2", { role: "user", content: "more" });
    expect(planSave(saved, storedPath(next.tree))).toMatchObject({ from: 2, replace: false, messages: [{ content: "more" }] });
    tree = addSibling(tree, "m2", { role: "assistant", content: "a2" }).tree;
    expect(planSave(saved, storedPath(tree))).toMatchObject({ from: 1, replace: true, messages: [{ content: "a2" }] });
    // Stopped empty stubs and system messages are never stored.
    const stub = addChild(tree, "m3", { role: "assistant", content: "", stopped: true }).tree;
    expect(storedPath(stub).map((n) => n.message.content)).toEqual(["q", "a2"]);
  });
});
