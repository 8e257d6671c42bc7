import { AppError } from "@/lib/shared/errors";
import { ARGON2ID, type Argon2Params } from "@/lib/shared/vault/argon2-params";
import { paddedLength } from "@/lib/shared/vault/padding";

/**
 * The vault: end-to-end encryption of saved history, run in the browser (and in Node for tests, which
 * has the same WebCrypto). The server only ever stores what this module produces.
 *
 * Keys
 * - Vault key: 32 random bytes made in the browser (crypto.getRandomValues) when the user turns on
 *   saved history. It never leaves the browser unwrapped: the server stores it only wrapped by each
 *   unlock method, and it lives in the tab's memory once unlocked. A remembered device (opt-in) keeps it
 *   wrapped under a non-extractable IndexedDB key and a server-held share (wrapForDevice).
 * - Wrapping key, one per unlock method (an AES-256-GCM key):
 *   passphrase -> Argon2id(passphrase, 16-byte random salt, ARGON2ID: 64 MiB, 3 passes, 4 lanes) -> 32 bytes
 *   recovery code (160 random bits) -> HKDF-SHA-256(code, 16-byte salt, "hush vault recovery v2")
 *   passkey -> WebAuthn PRF output (32 bytes, evaluated on a 32-byte random per-passkey input)
 *             -> HKDF-SHA-256(prf, 16-byte salt, "hush vault passkey v2")
 *
 * Ciphertext formats (byte 0; format 1 was the server-side encryption of before the vault, removed)
 *   byte 0        0x03 for fields (titles, trees, messages) since docs/issues.md #22; 0x02 for wrapped keys
 *                 and for fields written before it (still read)
 *   bytes 1..12   random 96-bit IV (getRandomValues; NIST SP 800-38D allows 2^32 random IVs per key)
 *   bytes 13..    AES-256-GCM ciphertext followed by its 16-byte tag
 * Format 3 pads the plaintext before sealing (ISO/IEC 7816-4: the text, one 0x80 byte, zeros) to a bucket,
 * so that the stored length tells the server only the bucket, not the text's length (docs/issues.md #22,
 * "Metadata"): 256 bytes at least, then powers of two up to 1 MiB, then whole MiB (`paddedLength`).
 * Associated data is the UTF-8 JSON array ["hush", <format>, <purpose>, ...fields]:
 *   chat title:  ["hush", 2, "title", userId, chatId]
 *   branch tree: ["hush", 2, "tree", userId, chatId]   (edited and regenerated versions)
 *   project:     ["hush", 2, "project", userId, projectId]   (name and instructions)
 *   message:     ["hush", 2, "content" | "attachment" | "steps", userId, chatId, position, role]
 *   wrapped key: ["hush", 2, "vault-key", userId, kind, methodId]
 *   next key:    ["hush", 2, "next-key", userId, generation]  (a rotation's new key)
 *   chat header: ["hush", 3, "header", userId, chatId]      (under the integrity key)
 *   manifest:    ["hush", 3, "manifest", userId]            (under the integrity key)
 * so a ciphertext moved to another user, chat, field, position, role or method fails to decrypt, and a
 * format byte changed by the server (3 to 2, to skip the unpadding) fails too.
 */

/** The format of wrapped keys (fixed length, nothing to pad). */
export const VAULT_FORMAT = 2;
/** The format of fields: padded to a bucket. */
export const VAULT_FIELD_FORMAT = 3;
export const VAULT_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = 1 + IV_BYTES;
/** Bytes of randomness in a recovery code: 160 bits (the issue asks for at least 128). */
export const RECOVERY_CODE_BYTES = 20;

export { ARGON2ID, ARGON2ID_FLOOR, type Argon2Params } from "@/lib/shared/vault/argon2-params";

export type MethodKind = "passkey" | "passphrase" | "recovery";

/** Where a field ciphertext belongs; bound into the associated data. */
export type VaultField =
  | { field: "title"; userId: string; chatId: string }
  | { field: "tree"; userId: string; chatId: string }
  /** A chat's sealed header (version and hash chain), under the integrity key. */
  | { field: "header"; userId: string; chatId: string }
  /** The sealed manifest of the user's chats and their versions, under the integrity key. */
  | { field: "manifest"; userId: string }
  /** An unsent draft kept in this browser (lib/browser/chat/drafts.ts); chatId is the chat's id or "new". */
  | { field: "draft"; userId: string; chatId: string }
  | { field: "project"; userId: string; projectId: string }
  /** docs/issues.md #41: the user's memories, one sealed list (lib/browser/vault/memory.ts). */
  | { field: "memory"; userId: string }
  /** docs/issues.md #41: one file of a project's knowledge (lib/browser/vault/project-files.ts). */
  | { field: "project_file"; userId: string; projectId: string; fileId: string }
  | { field: "content" | "attachment" | "steps"; userId: string; chatId: string; position: number; role: string };

/** A ciphertext did not authenticate: wrong key or secret, or it was moved or altered (AppError "unprocessable:vault_decrypt"). */
export const vaultDecryptionError = (message = "Could not decrypt: wrong key, or the data was moved or altered.") =>
  new AppError("unprocessable:vault_decrypt", message);

/** The text is not a recovery code, wrong length or characters (AppError "bad_request:recovery_code"; the message is shown). */
const recoveryCodeFormatError = () =>
  new AppError("bad_request:recovery_code", "That is not a recovery code: it has 32 letters and digits, in groups of four.");

const subtle = () => globalThis.crypto.subtle;
const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

/** `n` cryptographically random bytes. */
export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

/** A fresh vault key (32 random bytes). */
export function generateVaultKey(): Uint8Array<ArrayBuffer> {
  return randomBytes(VAULT_KEY_BYTES);
}

/** The vault key as a non-extractable AES-GCM CryptoKey for field encryption. */
export async function importVaultKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return subtle().importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

function ad(purpose: string, fields: (string | number)[], format = VAULT_FORMAT): Uint8Array<ArrayBuffer> {
  return enc.encode(JSON.stringify(["hush", format, purpose, ...fields]));
}

function fieldAd(ctx: VaultField, format: number): Uint8Array<ArrayBuffer> {
  if (ctx.field === "manifest" || ctx.field === "memory") return ad(ctx.field, [ctx.userId], format);
  if (ctx.field === "project_file") return ad(ctx.field, [ctx.userId, ctx.projectId, ctx.fileId], format);
  if (ctx.field === "title" || ctx.field === "tree" || ctx.field === "header" || ctx.field === "draft") return ad(ctx.field, [ctx.userId, ctx.chatId], format);
  if (ctx.field === "project") return ad(ctx.field, [ctx.userId, ctx.projectId], format);
  return ad(ctx.field, [ctx.userId, ctx.chatId, ctx.position, ctx.role], format);
}

function pad(text: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(paddedLength(text.length));
  out.set(text);
  out[text.length] = 0x80;
  return out;
}

function unpad(padded: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 0x80) throw vaultDecryptionError("Malformed padding.");
  // A view, not a copy: only decoded to text (search decrypts every message).
  return padded.subarray(0, end);
}

async function seal(key: CryptoKey, data: Uint8Array<ArrayBuffer>, plaintext: Uint8Array<ArrayBuffer>, format = VAULT_FORMAT) {
  const iv = randomBytes(IV_BYTES);
  const sealed = new Uint8Array(await subtle().encrypt({ name: "AES-GCM", iv, additionalData: data }, key, plaintext));
  const out = new Uint8Array(HEADER + sealed.length);
  out[0] = format;
  out.set(iv, 1);
  out.set(sealed, HEADER);
  return out;
}

async function open(key: CryptoKey, data: Uint8Array<ArrayBuffer>, ciphertext: Uint8Array, format = VAULT_FORMAT): Promise<Uint8Array<ArrayBuffer>> {
  if (ciphertext.length < HEADER + TAG_BYTES) throw vaultDecryptionError("Malformed ciphertext.");
  if (ciphertext[0] !== format) throw vaultDecryptionError(`Unsupported ciphertext version ${ciphertext[0]}.`);
  try {
    // Views, not copies: WebCrypto copies its inputs when called (the Web Cryptography spec's "get a copy
    // of the bytes held by"); a view of shared memory, which it refuses, is copied first.
    const bytes = ciphertext.buffer instanceof ArrayBuffer ? (ciphertext as Uint8Array<ArrayBuffer>) : ciphertext.slice();
    const iv = bytes.subarray(1, HEADER);
    const body = bytes.subarray(HEADER);
    return new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv, additionalData: data }, key, body));
  } catch {
    throw vaultDecryptionError();
  }
}

/** Encrypt one text field under the vault key, bound to `ctx`, padded to its bucket (format 3). */
export async function encryptField(key: CryptoKey, ctx: VaultField, text: string): Promise<Uint8Array<ArrayBuffer>> {
  return seal(key, fieldAd(ctx, VAULT_FIELD_FORMAT), pad(enc.encode(text)), VAULT_FIELD_FORMAT);
}

/**
 * Decrypt one text field, format 3 or (written before docs/issues.md #22) 2.
 * @throws AppError "unprocessable:vault_decrypt" (also when the padding or the UTF-8 is malformed).
 */
export async function decryptField(key: CryptoKey, ctx: VaultField, ciphertext: Uint8Array): Promise<string> {
  const format = ciphertext[0] === VAULT_FIELD_FORMAT ? VAULT_FIELD_FORMAT : VAULT_FORMAT;
  const opened = await open(key, fieldAd(ctx, format), ciphertext, format);
  const bytes = format === VAULT_FIELD_FORMAT ? unpad(opened) : opened;
  try {
    return dec.decode(bytes);
  } catch {
    throw vaultDecryptionError("Decrypted text is not UTF-8.");
  }
}

/** What a wrapped vault key is bound to. */
export interface WrapContext {
  userId: string;
  kind: MethodKind;
  methodId: string;
}

/** Wrap the raw vault key under a method's wrapping key. */
export async function wrapVaultKey(raw: Uint8Array<ArrayBuffer>, wrappingKey: CryptoKey, ctx: WrapContext) {
  return seal(wrappingKey, ad("vault-key", [ctx.userId, ctx.kind, ctx.methodId]), raw);
}

/**
 * Unwrap the vault key. @throws AppError "unprocessable:vault_decrypt" when the secret behind `wrappingKey` is wrong.
 */
export async function unwrapVaultKey(wrapped: Uint8Array, wrappingKey: CryptoKey, ctx: WrapContext) {
  const raw = await open(wrappingKey, ad("vault-key", [ctx.userId, ctx.kind, ctx.methodId]), wrapped);
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return raw;
}

function aesKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return subtle().importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function hkdfKey(ikm: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>, info: string): Promise<CryptoKey> {
  const base = await subtle().importKey("raw", ikm, "HKDF", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "HKDF", hash: "SHA-256", salt, info: enc.encode(info) },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/**
 * Wrapping key from a passphrase: Argon2id (hash-wasm) with `params` (default ARGON2ID). The
 * passphrase is NFKC-normalised so the same words typed on another keyboard give the same key.
 */
export async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, params: Argon2Params = ARGON2ID) {
  // Hash-wasm (its Argon2 WebAssembly inlined) loads when a passphrase is first used, not with
  // every page that holds the vault store (/chat).
  const { argon2id } = await import("hash-wasm");
  const hash = await argon2id({
    password: passphrase.normalize("NFKC"),
    salt,
    parallelism: params.parallelism,
    iterations: params.iterations,
    memorySize: params.memoryKiB,
    hashLength: 32,
    outputType: "binary",
  });
  return aesKey(new Uint8Array(hash));
}

/**
 * The integrity key: HKDF-SHA-256 of the raw vault key, salt "hush", info "hush vault
 * integrity v1", as a non-extractable AES-256-GCM key. Chat headers and the manifest are sealed under it,
 * so they authenticate under a key derived from the vault key but separate from the one of the contents.
 */
export function integrityKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return hkdfKey(raw, enc.encode("hush"), "hush vault integrity v1");
}

/** What the next key of a rotation is bound to. */
export interface NextKeyContext {
  userId: string;
  generation: number;
}

const nextKeyWrappingKey = (current: Uint8Array<ArrayBuffer>) => hkdfKey(current, enc.encode("hush"), "hush vault next key v1");

/**
 * Wrap a rotation's next vault key under a key derived (HKDF-SHA-256) from the current one, bound to user
 * and generation: whoever unlocks the current key can finish the rotation.
 */
export async function wrapNextKey(next: Uint8Array<ArrayBuffer>, current: Uint8Array<ArrayBuffer>, ctx: NextKeyContext) {
  return seal(await nextKeyWrappingKey(current), ad("next-key", [ctx.userId, ctx.generation]), next);
}

/** Open a rotation's next key. @throws AppError "unprocessable:vault_decrypt" */
export async function unwrapNextKey(wrapped: Uint8Array, current: Uint8Array<ArrayBuffer>, ctx: NextKeyContext) {
  const raw = await open(await nextKeyWrappingKey(current), ad("next-key", [ctx.userId, ctx.generation]), wrapped);
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return raw;
}

/** SHA-256 of `bytes`, as 64 lowercase hex digits. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await subtle().digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Wrapping key from a recovery code's bytes (already 160 random bits: no stretching needed). */
export function recoveryKey(code: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return hkdfKey(code, salt, "hush vault recovery v2");
}

/** Wrapping key from a passkey's PRF output. */
export function prfKey(prfOutput: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return hkdfKey(prfOutput, salt, "hush vault passkey v2");
}

/**
 * A remembered device's own share: a fresh AES-GCM key the browser cannot export,
 * kept in IndexedDB (structured clone keeps it non-extractable), so script can use it on this device
 * but cannot copy it elsewhere.
 */
export async function generateDeviceKey(): Promise<CryptoKey> {
  return subtle().generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** What a remembered device's wrap is bound to. */
export interface DeviceContext {
  userId: string;
  deviceId: string;
}

const deviceShareKey = (secret: Uint8Array<ArrayBuffer>, ctx: DeviceContext) =>
  hkdfKey(secret, enc.encode(ctx.deviceId), "hush vault device v1");

/**
 * Wrap the raw vault key for a remembered device under two shares: first the device's own key
 * (`generateDeviceKey`), then a key derived (HKDF-SHA-256) from the server's 32-byte share; both
 * layers bind user and device. Without either share the wrap opens nothing, so deleting the server's
 * share revokes the device.
 */
export async function wrapForDevice(raw: Uint8Array<ArrayBuffer>, deviceKey: CryptoKey, serverShare: Uint8Array<ArrayBuffer>, ctx: DeviceContext) {
  const inner = await seal(deviceKey, ad("device-key", [ctx.userId, ctx.deviceId]), raw);
  return seal(await deviceShareKey(serverShare, ctx), ad("device-share", [ctx.userId, ctx.deviceId]), inner);
}

/**
 * Open a remembered device's wrap. @throws AppError "unprocessable:vault_decrypt" when either share is
 * wrong, or the wrap was made for another user or device.
 */
export async function unwrapForDevice(wrapped: Uint8Array, deviceKey: CryptoKey, serverShare: Uint8Array<ArrayBuffer>, ctx: DeviceContext) {
  const inner = await open(await deviceShareKey(serverShare, ctx), ad("device-share", [ctx.userId, ctx.deviceId]), wrapped);
  const raw = await open(deviceKey, ad("device-key", [ctx.userId, ctx.deviceId]), inner);
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return raw;
}

// Crockford's base32: no I, L, O, U, so a code read aloud or handwritten is not misread.
const B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A new recovery code: 160 random bits as 32 base32 characters in 8 groups of 4 ("ABCD-EFGH-…"). */
export function generateRecoveryCode(): string {
  const bytes = randomBytes(RECOVERY_CODE_BYTES);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out.match(/.{4}/g)!.join("-");
}

/**
 * The 20 bytes of a recovery code typed by a person: case, spaces and dashes ignored, O read as 0,
 * I and L as 1. @throws AppError "bad_request:recovery_code"
 */
export function parseRecoveryCode(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (clean.length !== (RECOVERY_CODE_BYTES * 8) / 5) throw recoveryCodeFormatError();
  const out = new Uint8Array(RECOVERY_CODE_BYTES);
  let bits = 0;
  let value = 0;
  let i = 0;
  for (const ch of clean) {
    const v = B32.indexOf(ch);
    if (v < 0) throw recoveryCodeFormatError();
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out[i++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

export { fromBase64, toBase64 } from "@/lib/shared/bytes";
