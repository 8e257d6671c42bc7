import { AppError } from "@/lib/shared/errors";
import { ARGON2ID, type Argon2Params } from "@/lib/shared/vault/argon2-params";
import { paddedLength } from "@/lib/shared/vault/padding";

/**
 * The vault: end-to-end encryption of saved history in the browser (docs/security.md "Secrets and keys"). Associated
 * data ["hush", format, purpose, ...ids] binds each ciphertext to its place and format byte.
 */

export const VAULT_FORMAT = 2;
export const VAULT_FIELD_FORMAT = 3;
const VAULT_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = 1 + IV_BYTES;
const RECOVERY_CODE_BYTES = 20;

export { ARGON2ID, ARGON2ID_FLOOR, type Argon2Params } from "@/lib/shared/vault/argon2-params";

export type MethodKind = "passkey" | "passphrase" | "recovery";

export type VaultField =
  | { field: "title"; userId: string; chatId: string }
  | { field: "tree"; userId: string; chatId: string }
  | { field: "header"; userId: string; chatId: string }
  | { field: "manifest"; userId: string }
  | { field: "draft"; userId: string; chatId: string }
  | { field: "project"; userId: string; projectId: string }
  | { field: "memory"; userId: string }
  | { field: "project_file"; userId: string; projectId: string; fileId: string }
  | { field: "content" | "attachment" | "steps"; userId: string; chatId: string; position: number; role: string };

export const vaultDecryptionError = (message = "Could not decrypt: wrong key, or the data was moved or altered.") =>
  new AppError("unprocessable:vault_decrypt", message);

const recoveryCodeFormatError = () =>
  new AppError("bad_request:recovery_code", "That is not a recovery code: it has 32 letters and digits, in groups of four.");

const subtle = () => globalThis.crypto.subtle;
const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { fatal: true });

export function randomBytes(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let i = 0; i < n; i += 65536) globalThis.crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

export function generateVaultKey(): Uint8Array<ArrayBuffer> {
  return randomBytes(VAULT_KEY_BYTES);
}

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
    // A view of shared memory, which WebCrypto refuses, is copied first.
    const bytes = ciphertext.buffer instanceof ArrayBuffer ? (ciphertext as Uint8Array<ArrayBuffer>) : ciphertext.slice();
    const iv = bytes.subarray(1, HEADER);
    const body = bytes.subarray(HEADER);
    return new Uint8Array(await subtle().decrypt({ name: "AES-GCM", iv, additionalData: data }, key, body));
  } catch {
    throw vaultDecryptionError();
  }
}

export async function encryptField(key: CryptoKey, ctx: VaultField, text: string): Promise<Uint8Array<ArrayBuffer>> {
  return seal(key, fieldAd(ctx, VAULT_FIELD_FORMAT), pad(enc.encode(text)), VAULT_FIELD_FORMAT);
}

/** Decrypt one field (format 3 or 2). @throws AppError "unprocessable:vault_decrypt" */
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

export interface WrapContext {
  userId: string;
  kind: MethodKind;
  methodId: string;
}

export async function wrapVaultKey(raw: Uint8Array<ArrayBuffer>, wrappingKey: CryptoKey, ctx: WrapContext) {
  return seal(wrappingKey, ad("vault-key", [ctx.userId, ctx.kind, ctx.methodId]), raw);
}

/** Unwrap the vault key. @throws AppError "unprocessable:vault_decrypt" on a wrong secret. */
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

export async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, params: Argon2Params = ARGON2ID) {
  // Hash-wasm loads when a passphrase is first used, not with every page that holds the vault store.
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

export function integrityKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return hkdfKey(raw, enc.encode("hush"), "hush vault integrity v1");
}

export interface NextKeyContext {
  userId: string;
  generation: number;
}

const nextKeyWrappingKey = (current: Uint8Array<ArrayBuffer>) => hkdfKey(current, enc.encode("hush"), "hush vault next key v1");

export async function wrapNextKey(next: Uint8Array<ArrayBuffer>, current: Uint8Array<ArrayBuffer>, ctx: NextKeyContext) {
  return seal(await nextKeyWrappingKey(current), ad("next-key", [ctx.userId, ctx.generation]), next);
}

/** @throws AppError "unprocessable:vault_decrypt" */
export async function unwrapNextKey(wrapped: Uint8Array, current: Uint8Array<ArrayBuffer>, ctx: NextKeyContext) {
  const raw = await open(await nextKeyWrappingKey(current), ad("next-key", [ctx.userId, ctx.generation]), wrapped);
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return raw;
}

export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await subtle().digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function recoveryKey(code: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return hkdfKey(code, salt, "hush vault recovery v2");
}

export function prfKey(prfOutput: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return hkdfKey(prfOutput, salt, "hush vault passkey v2");
}

export async function generateDeviceKey(): Promise<CryptoKey> {
  return subtle().generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

export interface DeviceContext {
  userId: string;
  deviceId: string;
}

const deviceShareKey = (secret: Uint8Array<ArrayBuffer>, ctx: DeviceContext) =>
  hkdfKey(secret, enc.encode(ctx.deviceId), "hush vault device v1");

/** Wrap the vault key under the device's key and the server's share: deleting that share revokes the device. */
export async function wrapForDevice(raw: Uint8Array<ArrayBuffer>, deviceKey: CryptoKey, serverShare: Uint8Array<ArrayBuffer>, ctx: DeviceContext) {
  const inner = await seal(deviceKey, ad("device-key", [ctx.userId, ctx.deviceId]), raw);
  return seal(await deviceShareKey(serverShare, ctx), ad("device-share", [ctx.userId, ctx.deviceId]), inner);
}

/** @throws AppError "unprocessable:vault_decrypt" when either share is wrong or bound elsewhere. */
export async function unwrapForDevice(wrapped: Uint8Array, deviceKey: CryptoKey, serverShare: Uint8Array<ArrayBuffer>, ctx: DeviceContext) {
  const inner = await open(await deviceShareKey(serverShare, ctx), ad("device-share", [ctx.userId, ctx.deviceId]), wrapped);
  const raw = await open(deviceKey, ad("device-key", [ctx.userId, ctx.deviceId]), inner);
  if (raw.length !== VAULT_KEY_BYTES) throw vaultDecryptionError("Malformed vault key.");
  return raw;
}

// Crockford's base32: no I, L, O, U, so a code read aloud is not misread.
const B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

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

/** @throws AppError "bad_request:recovery_code" */
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
