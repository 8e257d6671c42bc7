import { afterEach, describe, expect, it, vi } from "vitest";
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

/** docs/issues.md #42: the crypto is fetched at a draft's first use; a fetch that fails must not cost the draft. */
describe("a draft whose code cannot be fetched", () => {
  afterEach(() => {
    vi.doUnmock("@/lib/browser/vault/crypto");
    vi.resetModules();
    vi.unstubAllGlobals();
  });

  it("stays stored, and the read fails instead of counting it as a draft that does not open", async () => {
    const entries = new Map<string, string>();
    const localStorage = {
      getItem: (k: string) => entries.get(k) ?? null,
      setItem: (k: string, v: string) => void entries.set(k, v),
      removeItem: (k: string) => void entries.delete(k),
    };
    vi.stubGlobal("window", { localStorage });
    const key = await importVaultKey(generateVaultKey());
    const sealed = await sealDraft(key, "user-1", "chat-a", "kept text");
    entries.set(draftStorageKey("user-1", "chat-a"), sealed);

    vi.resetModules();
    vi.doMock("@/lib/browser/vault/crypto", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const { loadDraft } = await import("@/lib/browser/chat/drafts");
    await expect(loadDraft(key, "user-1", "chat-a")).rejects.toThrow();
    expect(entries.get(draftStorageKey("user-1", "chat-a"))).toBe(sealed);

    vi.doUnmock("@/lib/browser/vault/crypto");
    vi.resetModules();
    const fresh = await import("@/lib/browser/chat/drafts");
    expect(await fresh.loadDraft(key, "user-1", "chat-a")).toBe("kept text");
  });
});
