import { describe, expect, it } from "vitest";
import {
  ARGON2ID,
  decryptField,
  encryptField,
  fromBase64,
  generateRecoveryCode,
  generateVaultKey,
  importVaultKey,
  parseRecoveryCode,
  passphraseKey,
  prfKey,
  randomBytes,
  recoveryKey,
  toBase64,
  unwrapVaultKey,
  VAULT_FIELD_FORMAT,
  VAULT_FORMAT,
  wrapVaultKey,
  type VaultField,
} from "@/lib/browser/vault/crypto";
import { paddedLength } from "@/lib/shared/vault/padding";

/** The browser vault module (lib/browser/vault/crypto.ts) under Node's WebCrypto, which is the browser's API. */
const msg: VaultField = { field: "content", userId: "u1", chatId: "c1", position: 3, role: "user" };

describe("vault field format", () => {
  it("writes format 3, a 12-byte IV, the text padded to its bucket and a 16-byte tag, and round-trips text", async () => {
    const key = await importVaultKey(generateVaultKey());
    const ct = await encryptField(key, msg, "héllo");
    expect(ct[0]).toBe(VAULT_FIELD_FORMAT);
    expect(ct.length).toBe(1 + 12 + 256 + 16);
    expect(await decryptField(key, msg, ct)).toBe("héllo");
    // Two encryptions of the same text differ (fresh IV).
    expect(toBase64(await encryptField(key, msg, "héllo"))).not.toBe(toBase64(ct));
  });

  it("stores only the bucket of a text's length: 256 bytes, powers of two to 1 MiB, then whole MiB (docs/issues.md #22)", async () => {
    const key = await importVaultKey(generateVaultKey());
    const sizes = async (texts: string[]) => Promise.all(texts.map(async (t) => (await encryptField(key, msg, t)).length - 29));
    expect(await sizes(["", "a", "a".repeat(255)])).toEqual([256, 256, 256]);
    expect(await sizes(["a".repeat(256), "a".repeat(300), "a".repeat(511)])).toEqual([512, 512, 512]);
    expect(await sizes(["a".repeat(70_000)])).toEqual([131_072]);
    expect([paddedLength(1024 * 1024 - 1), paddedLength(1024 * 1024), paddedLength(3 * 1024 * 1024 + 5)]).toEqual([1024 * 1024, 2 * 1024 * 1024, 4 * 1024 * 1024]);
    for (const text of ["", "x", "trailing zero bytes stay \u0000\u0000", "a".repeat(300)]) expect(await decryptField(key, msg, await encryptField(key, msg, text))).toBe(text);
  });

  it("still reads format 2 fields (written before padding), and refuses a format byte changed to skip the unpadding", async () => {
    const raw = generateVaultKey();
    const key = await importVaultKey(raw);
    // Format 2 as lib/browser/vault/crypto.ts wrote it: 0x02, IV, AES-256-GCM under associated data ["hush", 2, ...].
    const iv = randomBytes(12);
    const aesKey = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
    const data = new TextEncoder().encode(JSON.stringify(["hush", 2, "content", "u1", "c1", 3, "user"]));
    const body = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: data }, aesKey, new TextEncoder().encode("old text")));
    const v2 = new Uint8Array([VAULT_FORMAT, ...iv, ...body]);
    expect(await decryptField(key, msg, v2)).toBe("old text");
    const v3 = await encryptField(key, msg, "new text");
    const downgraded = v3.slice();
    downgraded[0] = VAULT_FORMAT;
    await expect(decryptField(key, msg, downgraded)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
  });

  it("binds each ciphertext to user, chat, field, position and role", async () => {
    const key = await importVaultKey(generateVaultKey());
    const ct = await encryptField(key, msg, "secret");
    const moved: VaultField[] = [
      { ...msg, userId: "u2" },
      { ...msg, chatId: "c2" },
      { ...msg, position: 4 },
      { ...msg, role: "assistant" },
      { ...msg, field: "attachment" },
      { field: "title", userId: "u1", chatId: "c1" },
    ];
    for (const ctx of moved) await expect(decryptField(key, ctx, ct)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
  });

  it("refuses another key, an altered byte, a truncated or unknown-version ciphertext", async () => {
    const key = await importVaultKey(generateVaultKey());
    const other = await importVaultKey(generateVaultKey());
    const ct = await encryptField(key, msg, "secret");
    await expect(decryptField(other, msg, ct)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    const flipped = ct.slice();
    flipped[20]! ^= 1;
    await expect(decryptField(key, msg, flipped)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    await expect(decryptField(key, msg, ct.slice(0, 20))).rejects.toThrow(/Malformed/);
    const v1 = ct.slice();
    v1[0] = 1;
    await expect(decryptField(key, msg, v1)).rejects.toThrow(/version 1/);
  });
});

describe("key wrapping", () => {
  const ctx = { userId: "u1", kind: "passphrase" as const, methodId: "m1" };

  it("a passphrase unwraps the key; a wrong passphrase fails", async () => {
    const raw = generateVaultKey();
    const salt = randomBytes(16);
    const wrapped = await wrapVaultKey(raw, await passphraseKey("correct horse battery", salt), ctx);
    expect(await unwrapVaultKey(wrapped, await passphraseKey("correct horse battery", salt), ctx)).toEqual(raw);
    await expect(unwrapVaultKey(wrapped, await passphraseKey("correct horse batterz", salt), ctx)).rejects.toThrow(
    );
    // The same wrap presented as another user's or method's does not open either.
    const key = await passphraseKey("correct horse battery", salt);
    await expect(unwrapVaultKey(wrapped, key, { ...ctx, userId: "u2" })).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
    await expect(unwrapVaultKey(wrapped, key, { ...ctx, methodId: "m2" })).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
  });

  it("uses the written-down Argon2id parameters (RFC 9106's second option: 64 MiB, t=3, p=4; docs/issues.md #21) and normalises the passphrase", async () => {
    expect(ARGON2ID).toEqual({ memoryKiB: 65536, iterations: 3, parallelism: 4 });
    const raw = generateVaultKey();
    const salt = randomBytes(16);
    // "é" precomposed vs. e + combining accent: same passphrase to a person, same key here.
    const wrapped = await wrapVaultKey(raw, await passphraseKey("caf\u00e9 au lait!", salt), ctx);
    expect(await unwrapVaultKey(wrapped, await passphraseKey("cafe\u0301 au lait!", salt), ctx)).toEqual(raw);
  });

  it("a recovery code (160 bits, 8 groups of 4) unwraps the key; a wrong code fails", async () => {
    const code = generateRecoveryCode();
    expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{4}-){7}[0-9A-HJKMNP-TV-Z]{4}$/);
    const bytes = parseRecoveryCode(code);
    expect(bytes.length).toBe(20);
    // Typed loosely: lower case, spaces instead of dashes.
    expect(parseRecoveryCode(code.toLowerCase().replace(/-/g, " "))).toEqual(bytes);
    const raw = generateVaultKey();
    const salt = randomBytes(16);
    const rctx = { ...ctx, kind: "recovery" as const };
    const wrapped = await wrapVaultKey(raw, await recoveryKey(bytes, salt), rctx);
    expect(await unwrapVaultKey(wrapped, await recoveryKey(parseRecoveryCode(code), salt), rctx)).toEqual(raw);
    const wrong = generateRecoveryCode();
    await expect(unwrapVaultKey(wrapped, await recoveryKey(parseRecoveryCode(wrong), salt), rctx)).rejects.toThrow(
    );
    expect(() => parseRecoveryCode("ABCD-EFGH")).toThrow(expect.objectContaining({ code: "bad_request:recovery_code" }));
    expect(() => parseRecoveryCode(code.slice(0, -1) + "U")).toThrow(expect.objectContaining({ code: "bad_request:recovery_code" }));
  });

  it("a passkey's PRF output unwraps the key through HKDF", async () => {
    const raw = generateVaultKey();
    const prf = randomBytes(32);
    const salt = randomBytes(16);
    const pctx = { ...ctx, kind: "passkey" as const };
    const wrapped = await wrapVaultKey(raw, await prfKey(prf, salt), pctx);
    expect(await unwrapVaultKey(wrapped, await prfKey(prf.slice(), salt), pctx)).toEqual(raw);
    await expect(unwrapVaultKey(wrapped, await prfKey(randomBytes(32), salt), pctx)).rejects.toMatchObject({ code: "unprocessable:vault_decrypt" });
  });

  it("base64 helpers round-trip large buffers", () => {
    const big = randomBytes(100_000);
    expect(fromBase64(toBase64(big))).toEqual(big);
  });
});

describe("an image sealed with a saved chat (docs/issues.md #23)", () => {
  it("travels in the attachment ciphertext and comes back on its message, never as a document", async () => {
    const { sealTurn, openChat } = await import("@/lib/browser/vault/seal");
    const key = await importVaultKey(generateVaultKey());
    const url = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const image = { url, width: 1, height: 1 };
    const body = await sealTurn({
      key, userId: "u1", chatId: "c1", create: true, firstPosition: 0, title: "t",
      messages: [
        { role: "user", content: "look", attachment: { name: "dot.png", text: "", image } },
        { role: "assistant", content: "a dot" },
        { role: "user", content: "and this", attachment: { name: "a.pdf", text: "pdf text" } },
      ],
    });
    expect(JSON.stringify(body)).not.toContain("iVBOR");
    const opened = await openChat(key, "u1", {
      chat_id: "c1", display_name_ciphertext: body.title_ciphertext, last_updated: new Date().toISOString(),
      messages: body.messages.map((m, position) => ({ ...m, position })),
    });
    expect(opened.messages[0]!.attachment).toEqual({ name: "dot.png", text: "", image });
    expect(opened.documents).toEqual([{ name: "a.pdf", text: "pdf text" }]);
  });
});
