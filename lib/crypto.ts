import "server-only";
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import sodium from "libsodium-wrappers";
import { ConfigError, getConfig, type Config } from "@/lib/config";
import { logger } from "@/lib/log";

/**
 * Encryption core: envelope encryption of everything a user writes.
 *
 * Keys
 * - Master key (key-encryption key): ENCRYPTION_MASTER_KEY, 32 bytes in base64. In development and
 *   test, when unset, one is generated once into <DATA_DIR>/master.key (mode 0600) with a warning;
 *   production refuses to start without it (lib/config.ts). Its id (`masterKeyId`) is the first 16 hex
 *   characters of a keyed BLAKE2b hash, stored beside every wrapped data key, so rotation needs no
 *   version setting: ENCRYPTION_MASTER_KEY_PREVIOUS, when set, unwraps keys stored under the old id
 *   and `npm run keys:rotate` re-wraps them under the current one.
 * - Data key: 32 random bytes per user, stored only wrapped (encrypted) under the master key with
 *   associated data binding the wrap to the user id. Deleting it crypto-shreds the user's data.
 *
 * Ciphertext format (every stored ciphertext, wrapped data keys included)
 *   byte 0        format version, currently 0x01
 *   bytes 1..24   nonce, 24 random bytes from node:crypto randomBytes, drawn 128 nonces at a time
 *                 (libsodium's randombytes_buf costs about 56 µs a call, stack-facts "Crypto"; one
 *                 randomBytes(24) call about 2.5 µs, a quarter of encrypting 1 KB)
 *   bytes 25..    XChaCha20-Poly1305-IETF ciphertext followed by its 16-byte tag
 * Version 1 associated data is the UTF-8 JSON array ["hush", 1, <purpose>, ...fields]:
 *   data key:    ["hush", 1, "data-key", userId, masterKeyId]
 *   chat title:  ["hush", 1, "title", userId, chatId]
 *   message:     ["hush", 1, "content" | "attachment", userId, chatId, position, role]
 * so a ciphertext copied to another user, chat, field, position or role fails authentication.
 * A new format gets a new version byte; decryption dispatches on it.
 */

/** Current ciphertext format version (byte 0). */
export const FORMAT_VERSION = 1;
export const KEY_BYTES = 32;
export const NONCE_BYTES = 24;
export const TAG_BYTES = 16;
const HEADER_BYTES = 1 + NONCE_BYTES;
/** Name of the development master key file inside DATA_DIR. */
export const DEV_MASTER_KEY_FILE = "master.key";

/** A ciphertext failed to authenticate or is malformed. The message never contains plaintext. */
export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecryptionError";
  }
}

/** A data key was wrapped under a master key that is neither the current nor the previous one. */
export class UnknownMasterKeyError extends DecryptionError {
  constructor(readonly masterKeyId: string) {
    super(
      `Data key is wrapped under master key ${masterKeyId}, which is neither ENCRYPTION_MASTER_KEY ` +
        "nor ENCRYPTION_MASTER_KEY_PREVIOUS.",
    );
    this.name = "UnknownMasterKeyError";
  }
}

export interface MasterKey {
  /** 16 hex characters, see `masterKeyId`. */
  id: string;
  key: Uint8Array;
}

export interface MasterKeys {
  current: MasterKey;
  /** ENCRYPTION_MASTER_KEY_PREVIOUS, unwrap only; null when unset or equal to the current key. */
  previous: MasterKey | null;
}

/** Where a field ciphertext belongs; it is bound into the associated data. */
export type FieldContext =
  | { field: "title"; userId: string; chatId: string }
  | { field: "content" | "attachment"; userId: string; chatId: string; position: number; role: string };

let sodiumReady = false;

/** Wait for libsodium's WebAssembly (about 25 ms, once). Everything below needs it. */
export async function initCrypto(): Promise<void> {
  if (sodiumReady) return;
  await sodium.ready;
  sodiumReady = true;
}

function lib(): typeof sodium {
  if (!sodiumReady) throw new Error("lib/crypto: call `await initCrypto()` (or getMasterKeys()) first.");
  return sodium;
}

/** 32 fresh random bytes, for a user's data key. */
export function generateDataKey(): Uint8Array<ArrayBuffer> {
  return new Uint8Array(randomBytes(KEY_BYTES));
}

/** Id of a master key: first 16 hex chars of BLAKE2b keyed by it (reveals nothing about the key). */
export function masterKeyId(key: Uint8Array): string {
  return lib().crypto_generichash(32, "hush master key id", key, "hex").slice(0, 16);
}

/**
 * Decode a base64 master key.
 * @param variable the setting or file it came from, named in the error.
 * @throws ConfigError unless it is base64 of exactly 32 bytes. The value itself is never echoed.
 */
export function parseMasterKey(value: string, variable: string): Uint8Array<ArrayBuffer> {
  const trimmed = value.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, "base64") : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new ConfigError(
      `${variable} must be ${KEY_BYTES} random bytes in base64 (got ${bytes.length} bytes). ` +
        "Generate one with `openssl rand -base64 32`.",
    );
  }
  return new Uint8Array(bytes);
}

let cachedKeys: { config: Config; keys: MasterKeys } | undefined;

/**
 * The master keys from the current Config (re-read after `resetConfigForTests()`).
 * @throws ConfigError for a malformed key, or a missing one in production.
 */
export async function getMasterKeys(): Promise<MasterKeys> {
  await initCrypto();
  const config = getConfig();
  if (cachedKeys?.config === config) return cachedKeys.keys;
  const currentBytes = config.ENCRYPTION_MASTER_KEY
    ? parseMasterKey(config.ENCRYPTION_MASTER_KEY, "ENCRYPTION_MASTER_KEY")
    : loadDevMasterKey(config);
  const current = { id: masterKeyId(currentBytes), key: currentBytes };
  let previous: MasterKey | null = null;
  if (config.ENCRYPTION_MASTER_KEY_PREVIOUS) {
    const prev = parseMasterKey(config.ENCRYPTION_MASTER_KEY_PREVIOUS, "ENCRYPTION_MASTER_KEY_PREVIOUS");
    const id = masterKeyId(prev);
    if (id !== current.id) previous = { id, key: prev };
  }
  const keys = { current, previous };
  cachedKeys = { config, keys };
  return keys;
}

/** Development/test only: read <dataDir>/master.key, creating it (0600) on first use. */
function loadDevMasterKey(config: Config): Uint8Array<ArrayBuffer> {
  if (config.isProduction) {
    throw new ConfigError("Missing required setting in production: ENCRYPTION_MASTER_KEY. See .env.example.");
  }
  const file = path.join(config.dataDir, DEV_MASTER_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // "wx": two processes starting at once cannot both create it; the loser reads the winner's key.
    fs.writeFileSync(file, `${Buffer.from(randomBytes(KEY_BYTES)).toString("base64")}\n`, {
      flag: "wx",
      mode: 0o600,
    });
    logger("crypto").warn(
      { path: file },
      "ENCRYPTION_MASTER_KEY is not set: generated a DEVELOPMENT master key. Saved chats are only as safe as " +
        "that file. Never use it in production: set ENCRYPTION_MASTER_KEY (openssl rand -base64 32) and keep " +
        "it out of the database backups.",
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return parseMasterKey(fs.readFileSync(file, "utf8"), file);
}

function associatedData(purpose: string, fields: (string | number)[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(["hush", FORMAT_VERSION, purpose, ...fields]));
}

function fieldAd(ctx: FieldContext): Uint8Array {
  return ctx.field === "title"
    ? associatedData("title", [ctx.userId, ctx.chatId])
    : associatedData(ctx.field, [ctx.userId, ctx.chatId, ctx.position, ctx.role]);
}

let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;

/** 24 fresh random bytes. The pool is replaced, never rewritten, so a slice is never handed out twice. */
function freshNonce(): Uint8Array {
  if (noncePoolOffset + NONCE_BYTES > noncePool.length) {
    noncePool = randomBytes(NONCE_BYTES * 128);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.subarray(noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

function seal(key: Uint8Array, ad: Uint8Array, plaintext: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const nonce = freshNonce();
  // Node's native UTF-8 encoder is faster than the one libsodium-wrappers applies to strings.
  const message = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
  const sealed = lib().crypto_aead_xchacha20poly1305_ietf_encrypt(message, ad, null, nonce, key);
  const out = new Uint8Array(HEADER_BYTES + sealed.length);
  out[0] = FORMAT_VERSION;
  out.set(nonce, 1);
  out.set(sealed, HEADER_BYTES);
  return out;
}

function open(key: Uint8Array, ad: Uint8Array, ciphertext: Uint8Array, what: string): Uint8Array {
  if (ciphertext.length < HEADER_BYTES + TAG_BYTES) throw new DecryptionError(`Malformed ${what} ciphertext.`);
  if (ciphertext[0] !== FORMAT_VERSION) {
    throw new DecryptionError(`Unsupported ${what} ciphertext version ${ciphertext[0]}.`);
  }
  try {
    return lib().crypto_aead_xchacha20poly1305_ietf_decrypt(
      null,
      ciphertext.subarray(HEADER_BYTES),
      ad,
      ciphertext.subarray(1, HEADER_BYTES),
      key,
    );
  } catch {
    throw new DecryptionError(`Could not decrypt ${what}: wrong key, or the ciphertext was moved or altered.`);
  }
}

/** Wrap (encrypt) a user's data key under a master key, bound to the user id. */
export function wrapDataKey(dataKey: Uint8Array, userId: string, master: MasterKey): Uint8Array<ArrayBuffer> {
  return seal(master.key, associatedData("data-key", [userId, master.id]), dataKey);
}

/**
 * Unwrap a user's data key with whichever master key has `masterKeyId`.
 * @throws UnknownMasterKeyError when that master key is not configured; DecryptionError when the wrap
 *   does not authenticate (wrong user, altered bytes).
 */
export function unwrapDataKey(
  wrapped: Uint8Array,
  stored: { userId: string; masterKeyId: string },
  keys: MasterKeys,
): Uint8Array {
  const master = [keys.current, keys.previous].find((k) => k?.id === stored.masterKeyId);
  if (!master) throw new UnknownMasterKeyError(stored.masterKeyId);
  const dataKey = open(master.key, associatedData("data-key", [stored.userId, master.id]), wrapped, "data key");
  if (dataKey.length !== KEY_BYTES) throw new DecryptionError("Malformed data key.");
  return dataKey;
}

/** Encrypt one field (UTF-8 text or bytes) under a user's data key, bound to `ctx`. */
export function encryptField(
  dataKey: Uint8Array,
  ctx: FieldContext,
  plaintext: string | Uint8Array,
): Uint8Array<ArrayBuffer> {
  return seal(dataKey, fieldAd(ctx), plaintext);
}

/** Decrypt a field to bytes. @throws DecryptionError */
export function decryptField(dataKey: Uint8Array, ctx: FieldContext, ciphertext: Uint8Array): Uint8Array {
  return open(dataKey, fieldAd(ctx), ciphertext, ctx.field);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decrypt a field to text. @throws DecryptionError (also when the plaintext is not UTF-8) */
export function decryptFieldText(dataKey: Uint8Array, ctx: FieldContext, ciphertext: Uint8Array): string {
  const bytes = decryptField(dataKey, ctx, ciphertext);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new DecryptionError(`Decrypted ${ctx.field} is not UTF-8.`);
  } finally {
    bytes.fill(0);
  }
}

/** Overwrite key material once it is no longer needed (best effort in a garbage-collected runtime). */
export function wipe(bytes: Uint8Array): void {
  bytes.fill(0);
}
