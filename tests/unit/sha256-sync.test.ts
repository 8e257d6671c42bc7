import { describe, expect, it } from "vitest";
import { integrityKey, generateVaultKey, sha256Hex, toBase64 } from "@/lib/browser/vault/crypto";
import { extendChain, sealHeader, stateAfterWrite, verifyChat } from "@/lib/browser/vault/integrity";
import { loadSyncSha256 } from "@/lib/browser/vault/sha256-sync";

/**
 * The search worker's synchronous SHA-256 (lib/browser/vault/sha256-sync.ts, docs/issues.md #24) gives WebCrypto's
 * digests, so the integrity chain (docs/issues.md #21) it computes is the one the browser seals.
 */
describe("synchronous SHA-256", () => {
  it("gives WebCrypto's digests, for empty, small and large inputs", async () => {
    const sha = await loadSyncSha256();
    expect(sha).not.toBeNull();
    for (const size of [0, 1, 55, 56, 63, 64, 65, 1000, 60_000]) {
      const bytes = crypto.getRandomValues(new Uint8Array(size));
      expect(sha!(bytes)).toBe(await sha256Hex(bytes));
    }
  });

  it("verifies a sealed chat exactly as WebCrypto does, and catches the same tampering", async () => {
    const sha = (await loadSyncSha256())!;
    const key = await integrityKey(generateVaultKey());
    const chatId = crypto.randomUUID();
    const b64 = (text: string) => toBase64(new TextEncoder().encode(text));
    const messages = Array.from({ length: 6 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content_ciphertext: b64(`message ${i} `.repeat(40 * (i + 1))),
      attachment_ciphertext: i === 2 ? b64("an attachment") : null,
    }));
    const title = b64("a title");
    const state = await stateAfterWrite(chatId, null, { from: 0, messages, title_ciphertext: title, tree_ciphertext: null });
    expect(await extendChain(chatId, [], messages, sha)).toEqual(state.chain);
    const chat = {
      chat_id: chatId,
      display_name_ciphertext: title,
      tree_ciphertext: null,
      header_ciphertext: await sealHeader(key, "u1", chatId, state),
      version: state.version,
      messages: messages.map((m, position) => ({ ...m, position })),
    };
    const expect0 = { seen: 0, manifest: state.version };
    const slow = await verifyChat(key, "u1", chat, expect0);
    const fast = await verifyChat(key, "u1", chat, expect0, sha);
    expect(fast).toEqual(slow);
    expect(fast.problem).toBeNull();

    const swapped = { ...chat, messages: chat.messages.map((m, i) => (i === 3 ? { ...m, content_ciphertext: b64("changed") } : m)) };
    const tampered = await verifyChat(key, "u1", swapped, expect0, sha);
    expect(tampered).toEqual(await verifyChat(key, "u1", swapped, expect0));
    expect(tampered.problem).toMatch(/^Integrity warning: this chat's messages are not the ones you saved/);
  });
});
