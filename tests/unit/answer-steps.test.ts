import { describe, expect, it } from "vitest";
import { encryptField, generateVaultKey, importVaultKey, sha256Hex, toBase64 } from "@/lib/browser/vault/crypto";
import { extendChain } from "@/lib/browser/vault/integrity";
import { openChat, sealTurn } from "@/lib/browser/vault/seal";
import { addChild, emptyTree, ROOT } from "@/lib/browser/chat/branches";
import { treeForSaving, treeFromSaved, type SavedMessage } from "@/lib/browser/chat/saved-tree";
import type { ToolStep } from "@/lib/shared/chat/steps";

/** docs/issues.md #50: an answer's steps in the browser: the hash chain over them, the sealed tree, a damaged record. */
const TOOL: ToolStep = { name: "device_time", arguments: "{}", result: '{"local":"2026-12-03T09:15:00","zone":"Europe/Paris"}', ok: true };
const b64 = (text: string) => toBase64(new TextEncoder().encode(text));

describe("an answer's steps", () => {
  it("extend a message's link of the hash chain only when it has some, so chains saved before them still verify", async () => {
    const m = { role: "assistant", content_ciphertext: b64("answer"), attachment_ciphertext: null };
    const [before] = await extendChain("c1", [], [m]);
    const start = await sha256Hex(new TextEncoder().encode("hush chat v1|c1"));
    const content = await sha256Hex(new TextEncoder().encode("answer"));
    expect(before).toBe(await sha256Hex(new TextEncoder().encode(`${start}|assistant|${content}|`)));
    expect(await extendChain("c1", [], [{ ...m, steps_ciphertext: null }])).toEqual([before]);
    const [withSteps] = await extendChain("c1", [], [{ ...m, steps_ciphertext: b64("steps") }]);
    const [otherSteps] = await extendChain("c1", [], [{ ...m, steps_ciphertext: b64("other steps") }]);
    expect(new Set([before, withSteps, otherSteps]).size).toBe(3);
  });

  it("are kept in the sealed branch tree of a chat with versions", () => {
    const user = addChild(emptyTree<SavedMessage>(), ROOT, { role: "user", content: "q" });
    let tree = addChild(user.tree, user.id, { role: "assistant", content: "a1", tools: [TOOL] }).tree;
    tree = addChild(tree, user.id, { role: "assistant", content: "a2" }).tree;
    const restored = treeFromSaved(treeForSaving(tree), [{ role: "user", content: "q" }, { role: "assistant", content: "a2" }]);
    expect(Object.values(restored.nodes).find((n) => n.message?.content === "a1")?.message?.tools).toEqual([TOOL]);
  });

  it("that do not match the record's schema are left out; the answer still opens", async () => {
    const key = await importVaultKey(generateVaultKey());
    const body = await sealTurn({ key, userId: "u1", chatId: "c1", create: true, firstPosition: 0, messages: [{ role: "assistant", content: "a", tools: [TOOL] }] });
    const damaged = toBase64(await encryptField(key, { field: "steps", userId: "u1", chatId: "c1", position: 0, role: "assistant" }, JSON.stringify({ tools: [{ name: 7 }] })));
    const chat = (steps: string | null) => ({ chat_id: "c1", display_name_ciphertext: null, last_updated: "", messages: [{ ...body.messages[0]!, steps_ciphertext: steps, position: 0 }] });
    expect((await openChat(key, "u1", chat(body.messages[0]!.steps_ciphertext))).messages[0]!.tools).toEqual([TOOL]);
    expect((await openChat(key, "u1", chat(damaged))).messages[0]).toEqual({ role: "assistant", content: "a", attachment: null });
  });
});
