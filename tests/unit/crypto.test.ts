import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ConfigError, resetConfigForTests } from "@/lib/config";
import { captureLogsForTests } from "@/lib/log";
import {
  decryptField,
  decryptFieldText,
  DecryptionError,
  DEV_MASTER_KEY_FILE,
  encryptField,
  FORMAT_VERSION,
  generateDataKey,
  getMasterKeys,
  initCrypto,
  masterKeyId,
  NONCE_BYTES,
  parseMasterKey,
  TAG_BYTES,
  UnknownMasterKeyError,
  unwrapDataKey,
  wrapDataKey,
  type FieldContext,
  type MasterKeys,
} from "@/lib/crypto";

const ENV_KEYS = ["DATA_DIR", "ENCRYPTION_MASTER_KEY", "ENCRYPTION_MASTER_KEY_PREVIOUS", "NODE_ENV", "NEXT_PHASE"] as const;
let savedEnv: Record<string, string | undefined>;
// NODE_ENV is typed read-only; tests switch it like any other variable.
const env = process.env as Record<string, string | undefined>;
let tmp: string;

beforeAll(async () => {
  await initCrypto();
});
beforeEach(() => {
  savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hush-crypto-"));
  process.env.DATA_DIR = tmp;
  delete process.env.ENCRYPTION_MASTER_KEY;
  delete process.env.ENCRYPTION_MASTER_KEY_PREVIOUS;
  resetConfigForTests();
});
afterEach(() => {
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete env[k];
    else env[k] = savedEnv[k];
  }
  resetConfigForTests();
  fs.rmSync(tmp, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const master = (key = generateDataKey()) => ({ id: masterKeyId(key), key });

const title: FieldContext = { field: "title", userId: "user-1", chatId: "chat-1" };
const content: FieldContext = { field: "content", userId: "user-1", chatId: "chat-1", position: 3, role: "user" };

function expectDecryptionError(fn: () => unknown, secret?: string): DecryptionError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DecryptionError);
  if (secret) expect((caught as Error).message).not.toContain(secret);
  return caught as DecryptionError;
}

describe("field encryption", () => {
  it("round-trips text, including empty, non-ASCII and large text", () => {
    const key = generateDataKey();
    for (const text of ["", "hello", "Kia ora, ngā mihi 🥝", "x".repeat(1_000_000)]) {
      expect(decryptFieldText(key, content, encryptField(key, content, text))).toBe(text);
    }
  });

  it("round-trips bytes", () => {
    const key = generateDataKey();
    const bytes = new Uint8Array(randomBytes(4096));
    expect(Buffer.from(decryptField(key, title, encryptField(key, title, bytes)))).toEqual(Buffer.from(bytes));
  });

  it("writes version, nonce, ciphertext and tag, with a fresh nonce each time", () => {
    const key = generateDataKey();
    const a = encryptField(key, title, "same text");
    const b = encryptField(key, title, "same text");
    expect(a.length).toBe(1 + NONCE_BYTES + Buffer.byteLength("same text") + TAG_BYTES);
    expect(a[0]).toBe(FORMAT_VERSION);
    expect(Buffer.from(a.subarray(1, 1 + NONCE_BYTES))).not.toEqual(Buffer.from(b.subarray(1, 1 + NONCE_BYTES)));
    expect(Buffer.from(a)).not.toEqual(Buffer.from(b));
  });

  it.each<[string, FieldContext]>([
    ["another user", { ...content, userId: "user-2" }],
    ["another chat", { ...content, chatId: "chat-2" }],
    ["another position", { ...content, position: 4 }],
    ["another role", { ...content, role: "assistant" }],
    ["another field", { ...content, field: "attachment" }],
    ["the title field", { field: "title", userId: "user-1", chatId: "chat-1" }],
  ])("fails for %s", (_label, wrong) => {
    const key = generateDataKey();
    const sealed = encryptField(key, content, "top secret words");
    expectDecryptionError(() => decryptFieldText(key, wrong, sealed), "top secret");
    expect(decryptFieldText(key, content, sealed)).toBe("top secret words");
  });

  it("fails for a title moved to another chat or user", () => {
    const key = generateDataKey();
    const sealed = encryptField(key, title, "Plans");
    expectDecryptionError(() => decryptFieldText(key, { ...title, chatId: "chat-2" }, sealed));
    expectDecryptionError(() => decryptFieldText(key, { ...title, userId: "user-2" }, sealed));
  });

  it("fails under another data key", () => {
    const sealed = encryptField(generateDataKey(), content, "secret");
    expectDecryptionError(() => decryptFieldText(generateDataKey(), content, sealed), "secret");
  });

  it("detects any altered byte (nonce, body, tag)", () => {
    const key = generateDataKey();
    const sealed = encryptField(key, content, "tamper with me");
    for (let i = 1; i < sealed.length; i++) {
      const altered = Uint8Array.from(sealed);
      altered[i]! ^= 0x80;
      expectDecryptionError(() => decryptField(key, content, altered), "tamper");
    }
    expectDecryptionError(() => decryptField(key, content, sealed.subarray(0, sealed.length - 1)));
    expectDecryptionError(() => decryptField(key, content, new Uint8Array(0)));
  });

  it("rejects an unknown version byte", () => {
    const key = generateDataKey();
    const sealed = encryptField(key, content, "v1");
    for (const version of [0, 2, 255]) {
      const altered = Uint8Array.from(sealed);
      altered[0] = version;
      expect(expectDecryptionError(() => decryptField(key, content, altered)).message).toMatch(/version/);
    }
  });
});

describe("data keys", () => {
  it("wraps and unwraps under the current master key", () => {
    const current = master();
    const keys: MasterKeys = { current, previous: null };
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(dataKey, "user-1", current);
    expect(wrapped.length).toBe(1 + NONCE_BYTES + 32 + TAG_BYTES);
    const unwrapped = unwrapDataKey(wrapped, { userId: "user-1", masterKeyId: current.id }, keys);
    expect(Buffer.from(unwrapped)).toEqual(Buffer.from(dataKey));
  });

  it("binds the wrap to the user", () => {
    const current = master();
    const wrapped = wrapDataKey(generateDataKey(), "user-1", current);
    expectDecryptionError(() =>
      unwrapDataKey(wrapped, { userId: "user-2", masterKeyId: current.id }, { current, previous: null }),
    );
  });

  it("fails to unwrap under a wrong master key", () => {
    const current = master();
    const wrapped = wrapDataKey(generateDataKey(), "user-1", current);
    const impostor = { id: current.id, key: generateDataKey() };
    expectDecryptionError(() =>
      unwrapDataKey(wrapped, { userId: "user-1", masterKeyId: current.id }, { current: impostor, previous: null }),
    );
    const other = master();
    expect(() =>
      unwrapDataKey(wrapped, { userId: "user-1", masterKeyId: current.id }, { current: other, previous: null }),
    ).toThrow(UnknownMasterKeyError);
  });

  it("unwraps with the previous master key during a rotation", async () => {
    const oldKey = generateDataKey();
    const newKey = generateDataKey();
    const dataKey = generateDataKey();
    const wrapped = wrapDataKey(dataKey, "user-1", master(oldKey));
    const stored = { userId: "user-1", masterKeyId: masterKeyId(oldKey) };

    process.env.ENCRYPTION_MASTER_KEY = b64(newKey);
    process.env.ENCRYPTION_MASTER_KEY_PREVIOUS = b64(oldKey);
    resetConfigForTests();
    const keys = await getMasterKeys();
    expect(keys.current.id).toBe(masterKeyId(newKey));
    expect(keys.previous?.id).toBe(masterKeyId(oldKey));
    expect(Buffer.from(unwrapDataKey(wrapped, stored, keys))).toEqual(Buffer.from(dataKey));

    delete process.env.ENCRYPTION_MASTER_KEY_PREVIOUS;
    resetConfigForTests();
    const currentOnly = await getMasterKeys();
    expect(() => unwrapDataKey(wrapped, stored, currentOnly)).toThrow(UnknownMasterKeyError);
  });

  it("derives a stable 16-hex id per master key", () => {
    const key = generateDataKey();
    expect(masterKeyId(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(masterKeyId(Uint8Array.from(key))).toBe(masterKeyId(key));
    expect(masterKeyId(generateDataKey())).not.toBe(masterKeyId(key));
  });
});

describe("master key settings", () => {
  it("generates a development key file once, 0600, with a warning, and reuses it", async () => {
    const capture = captureLogsForTests();
    const warn = { get calls() { return capture.records().filter((r) => r.level === "warn"); } };
    const first = await getMasterKeys();
    const file = path.join(tmp, DEV_MASTER_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseMasterKey(fs.readFileSync(file, "utf8"), file)).toEqual(first.current.key);
    expect(warn.calls).toHaveLength(1);
    expect(String(warn.calls[0]!.msg)).toMatch(/ENCRYPTION_MASTER_KEY is not set/);

    resetConfigForTests(); // as a new process would
    const second = await getMasterKeys();
    expect(second.current.id).toBe(first.current.id);
    expect(warn.calls).toHaveLength(1);
    capture.restore();
  });

  it("never generates a key file in production", async () => {
    // The build phase is the one production configuration that parses without the key.
    env.NODE_ENV = "production";
    process.env.NEXT_PHASE = "phase-production-build";
    resetConfigForTests();
    await expect(getMasterKeys()).rejects.toThrow(ConfigError);
    await expect(getMasterKeys()).rejects.toThrow(/ENCRYPTION_MASTER_KEY/);
    expect(fs.existsSync(path.join(tmp, DEV_MASTER_KEY_FILE))).toBe(false);
  });

  it("prefers ENCRYPTION_MASTER_KEY and writes no file then", async () => {
    const key = generateDataKey();
    process.env.ENCRYPTION_MASTER_KEY = b64(key);
    resetConfigForTests();
    expect((await getMasterKeys()).current.id).toBe(masterKeyId(key));
    expect(fs.existsSync(path.join(tmp, DEV_MASTER_KEY_FILE))).toBe(false);
  });

  it.each([
    ["16 bytes", b64(new Uint8Array(randomBytes(16)))],
    ["33 bytes", b64(new Uint8Array(randomBytes(33)))],
    ["not base64", "this is not a key!"],
  ])("rejects an ENCRYPTION_MASTER_KEY of %s, naming the variable", async (_label, value) => {
    process.env.ENCRYPTION_MASTER_KEY = value;
    resetConfigForTests();
    const error = await getMasterKeys().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^ENCRYPTION_MASTER_KEY must be 32 random bytes in base64/);
    expect((error as Error).message).not.toContain(value);
  });

  it("rejects a malformed ENCRYPTION_MASTER_KEY_PREVIOUS, naming it", async () => {
    process.env.ENCRYPTION_MASTER_KEY = b64(generateDataKey());
    process.env.ENCRYPTION_MASTER_KEY_PREVIOUS = b64(new Uint8Array(randomBytes(31)));
    resetConfigForTests();
    await expect(getMasterKeys()).rejects.toThrow(/^ENCRYPTION_MASTER_KEY_PREVIOUS must be 32/);
  });

  it("accepts URL-safe base64 and ignores a previous key equal to the current one", async () => {
    const key = generateDataKey();
    process.env.ENCRYPTION_MASTER_KEY = Buffer.from(key).toString("base64url");
    process.env.ENCRYPTION_MASTER_KEY_PREVIOUS = b64(key);
    resetConfigForTests();
    const keys = await getMasterKeys();
    expect(keys.current.id).toBe(masterKeyId(key));
    expect(keys.previous).toBeNull();
  });
});
