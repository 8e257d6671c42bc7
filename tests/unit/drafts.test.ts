import { describe, expect, it } from "vitest";
import { draftStorageKey, openDraft, sealDraft } from "@/lib/browser/chat/drafts";
import { fromBase64, generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";

/** docs/issues.md #23: drafts are sealed with the vault key, bound to user and chat, never stored in clear. */
describe("sealed drafts", () => {
  it("round-trip under the vault key, and the stored form holds no plaintext", async () => {
    const key = await importVaultKey(generateVaultKey());
    const text = "Half-written thought about the harbour canary-7731";
    const sealed = await sealDraft(key, "user-1", "new", text);
    expect(sealed).not.toContain("canary");
    expect(Buffer.from(fromBase64(sealed)).toString("latin1")).not.toContain("canary");
    expect(await openDraft(key, "user-1", "new", sealed)).toBe(text);
  });

  it("cannot be opened as another chat's or user's draft, or with another key", async () => {
    const key = await importVaultKey(generateVaultKey());
    const sealed = await sealDraft(key, "user-1", "chat-a", "secret");
    await expect(openDraft(key, "user-1", "chat-b", sealed)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    await expect(openDraft(key, "user-2", "chat-a", sealed)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    const other = await importVaultKey(generateVaultKey());
    await expect(openDraft(other, "user-1", "chat-a", sealed)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
  });

  it("are stored under a name with the user and chat, never text", () => {
    expect(draftStorageKey("user-1", "new")).toBe("hush.draft.v1.user-1.new");
  });
});
