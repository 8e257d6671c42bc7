import { z } from "@/lib/shared/zod";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";
import { ARGON2ID_FLOOR, ARGON2ID_FLOOR_TEXT } from "./argon2-params";
import { isPaddedLength } from "./padding";

/*
 * Field schemas (sealed ciphertexts, unlock methods): browser-safe, so the API contract
 * (lib/shared/api/contract.ts) can import them. The transform of `sealed` runs on the server only (Buffer).
 */
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Largest ciphertext field accepted, in base64 characters (a 60,000-character PDF text is ~80 KB). */
const MAX_FIELD_B64 = 2_000_000;

/** Bytes a vault ciphertext adds to its plaintext: format byte, IV, tag (lib/browser/vault/crypto.ts). */
const SEAL_OVERHEAD = 1 + 12 + 16;

/**
 * Base64 of a vault field ciphertext (lib/browser/vault/crypto.ts), decoded to bytes: format 3, its plaintext one of
 * the padding buckets, or format 2, which tabs loaded before padding still send.
 */
export const sealed = (max = MAX_FIELD_B64) =>
  z
    .string()
    .max(max)
    .regex(B64, "must be base64")
    .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
    .refine(
      (b) => (b[0] === 3 && isPaddedLength(b.length - SEAL_OVERHEAD)) || (b[0] === 2 && b.length >= SEAL_OVERHEAD),
      "must be a vault ciphertext (format 3, padded, or format 2)",
    );

/**
 * Base64 of a vault field ciphertext in format 3 only, its plaintext one of the padding buckets: for every field
 * created after padding (projects, memory, project files, chat headers, the manifest), which no browser ever sealed
 * in format 2, so an unpadded one would only let a client store exact lengths (docs/issues.md #54).
 */
export const paddedSealed = (max = MAX_FIELD_B64) =>
  z
    .string()
    .max(max)
    .regex(B64, "must be base64")
    .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
    .refine((b) => b[0] === 3 && isPaddedLength(b.length - SEAL_OVERHEAD), "must be a padded vault ciphertext (format 3)");

/** Base64 of a wrapped vault key (format 2: a fixed-length key, nothing to pad), decoded to bytes. */
const sealedKey = z
  .string()
  .max(200)
  .regex(B64, "must be base64")
  .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
  .refine((b) => b.length >= SEAL_OVERHEAD && b[0] === 2, "must be a wrapped vault key (format 2)");

const b64bytes = z.string().max(200).regex(B64, "must be base64");

/** What a wrap below the floor is told: the floor, and what to do. */
const BELOW_FLOOR = `below the server's floor for passphrase wraps (Argon2id ${ARGON2ID_FLOOR_TEXT}): wrap the key again with stronger parameters`;

/**
 * A passphrase wrap's Argon2id parameters. The minimums are the server's floor (lib/shared/vault/argon2-params.ts
 * ARGON2ID_FLOOR: m ≥ 64 MiB, t ≥ 3): the one place every stored wrap is checked (POST /api/vault,
 * POST and PATCH /api/vault/methods), so a wrap an offline attacker could try passphrases against cheaply is
 * refused with 400 naming the floor. Reads (GET /api/vault) are not checked: older, weaker wraps are still
 * served so the browser can open them and wrap the key again.
 */
const argon2Schema = z
  .object({
    memoryKiB: z.number().int().min(ARGON2ID_FLOOR.memoryKiB, `memory ${BELOW_FLOOR}`).max(4_194_304),
    iterations: z.number().int().min(ARGON2ID_FLOOR.iterations, `passes ${BELOW_FLOOR}`).max(20),
    parallelism: z.number().int().min(1).max(16),
  })
  .strict();

const kdfSchema = z
  .object({
    salt: b64bytes,
    argon2: argon2Schema.optional(),
    prf_input: b64bytes.optional(),
  })
  .strict();

/** A WebAuthn response as @simplewebauthn/browser returns it; checked in depth by the library. */
const webauthnResponse = z.object({ id: z.string().max(1500), rawId: z.string().max(1500), type: z.literal("public-key") }).passthrough();

/** One unlock method in a create/add request. */
export const methodSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    kind: z.enum(["passkey", "passphrase", "recovery"]),
    label: z.string().trim().max(60).nullable().default(null),
    wrapped_key: sealedKey,
    kdf: kdfSchema,
    /** Passkeys only: the registration response of the ceremony started by /api/vault/passkey/options. */
    registration: webauthnResponse.optional(),
  })
  .strict()
  .refine((m) => (m.kind === "passkey") === (m.registration !== undefined && m.kdf.prf_input !== undefined), {
    message: "a passkey method needs its registration and PRF input (and only a passkey has them)",
  })
  .refine((m) => (m.kind === "passphrase") === (m.kdf.argon2 !== undefined), {
    message: "a passphrase method needs its Argon2id parameters (and only it has them)",
  });
export type MethodInput = z.infer<typeof methodSchema>;

/** One message of an encrypted turn. */
export const sealedMessageSchema = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content_ciphertext: sealed(),
    attachment_ciphertext: sealed().nullable().default(null),
    /** An answer's steps (lib/shared/chat/steps.ts), sealed as field "steps"; padded, a field newer than padding. */
    steps_ciphertext: paddedSealed().nullable().default(null),
  })
  .strict();

/**
 * Request schemas of the vault endpoints and /api/ns/chat_save: here, not in the route files,
 * so the handlers and the OpenAPI document (lib/server/openapi) use the same objects. The field schemas
 * (sealed ciphertexts, unlock methods) live in lib/server/vault/server.ts.
 */

const lowercaseUuid = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

/** Largest sealed manifest in base64 characters: about 70 bytes a chat, 50,000 chats. */
export const MAX_MANIFEST_B64 = 5_000_000;
/** Largest sealed chat header in base64 characters: one padding bucket of 256 bytes, with room for format changes. */
const MAX_HEADER_B64 = 4000;
const version = z.number().int().min(0).max(2_000_000_000);

/**
 * The sealed manifest that goes with every change to the chat list or to a chat's version,
 * with the version it replaces (compare-and-set: another device's write in between answers 409
 * "conflict:manifest", and the browser merges and writes again).
 */
export const manifestWriteSchema = z
  .object({
    ciphertext: paddedSealed(MAX_MANIFEST_B64),
    base_version: version,
    /** The vault key generation the writer holds (a rotation moves it on: 409 for a writer left behind). */
    key_generation: version.default(0),
  })
  .strict();

/**
 * A chat's new sealed header, the version it replaces (compare-and-set on the chat: 409
 * "conflict:chat_version"), and the manifest that records the new version.
 */
export const chatIntegritySchema = z
  .object({ header_ciphertext: paddedSealed(MAX_HEADER_B64), base_version: version, manifest: manifestWriteSchema })
  .strict();

/** Largest sealed branch tree, in base64 characters (the whole tree of a long chat with its versions). */
export const MAX_TREE_B64 = 40_000_000;
/** Oldest timestamp an imported chat may carry (ChatGPT exports keep their dates). */
const OLDEST_IMPORT = Date.UTC(2000, 0, 1);

/** An ISO timestamp for an imported chat: not in the future (1 minute of clock skew), not before 2000. */
const importTime = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() >= OLDEST_IMPORT && d.getTime() <= Date.now() + 60_000, "must be between 2000 and now");

/**
 * POST /api/ns/chat_save: one turn sealed under the vault key by the browser.
 * - `replace`: the active path changed at `first_position` (an edited question or a regenerated
 *   answer): the stored messages from there on are replaced by `messages`, in one transaction.
 * - `tree_ciphertext`: the whole branch tree sealed under the vault key (field "tree"); null
 *   for a chat without versions (clears it); omitted leaves it as it is.
 * - `created_at` / `last_updated`: only with `create`, for imported chats (their original dates).
 */
export const chatSaveBodySchema = z
  .object({
    chat_id: lowercaseUuid,
    create: z.boolean(),
    title_ciphertext: sealed().nullable().default(null),
    first_position: z.number().int().min(0),
    replace: z.boolean().default(false),
    messages: z.array(sealedMessageSchema).min(1).max(10_000),
    tree_ciphertext: sealed(MAX_TREE_B64).nullable().optional(),
    created_at: importTime.optional(),
    last_updated: importTime.optional(),
    /** The chat's new header and the manifest (every Hush browser sends them). */
    integrity: chatIntegritySchema.optional(),
  })
  .strict()
  .refine((b) => b.create || (b.created_at === undefined && b.last_updated === undefined), "created_at and last_updated only with create")
  .refine((b) => !b.create || !b.replace, "a new chat has nothing to replace")
  .refine((b) => !b.create || !b.integrity || b.integrity.base_version === 0, "a new chat's header replaces version 0")
  .refine((b) => !b.created_at || !b.last_updated || b.created_at <= b.last_updated, "created_at must not be after last_updated");
export const CHAT_SAVE_MAX_BODY_BYTES = 50 * 1024 * 1024;

/**
 * POST /api/vault/rotation: start a rotation to key generation
 * `generation` (the vault's plus one): `next_key` is the new key wrapped under one derived from the current
 * key (lib/browser/vault/crypto.ts wrapNextKey), `methods` the new key's unlock methods, which wait until the
 * rotation finishes. Passkeys cannot be wrapped again without each one's tap: they are added again after.
 */
export const vaultRotationStartBodySchema = z
  .object({ generation: version.min(1), next_key: sealedKey, methods: z.array(methodSchema).min(1).max(5) })
  .strict()
  .refine((b) => b.methods.every((m) => m.kind !== "passkey"), "passkeys are added again once the rotation is finished")
  .refine((b) => b.methods.filter((m) => m.kind === "recovery").length === 1, "the new key needs exactly one recovery code");

/** One chat sealed again under the next key: all its messages, positions 0..n-1, its version unchanged. */
const resealedChatSchema = z
  .object({
    chat_id: lowercaseUuid,
    base_version: version,
    title_ciphertext: sealed().nullable(),
    tree_ciphertext: sealed(MAX_TREE_B64).nullable(),
    header_ciphertext: paddedSealed(MAX_HEADER_B64),
    messages: z.array(sealedMessageSchema).min(1).max(10_000),
  })
  .strict();

/** Most chats one POST /api/vault/rotation/chats carries. */
export const ROTATION_CHATS_PER_REQUEST = 50;

/** POST /api/vault/rotation/chats: chats sealed again under the next key. */
export const vaultRotationChatsBodySchema = z
  .object({ generation: version.min(1), chats: z.array(resealedChatSchema).min(1).max(ROTATION_CHATS_PER_REQUEST) })
  .strict();

/** POST /api/vault/rotation/finish: the manifest sealed under the next key's integrity key. */
export const vaultRotationFinishBodySchema = z.object({ generation: version.min(1), manifest: manifestWriteSchema }).strict();

/** POST /api/vault `{ methods }`: the vault's first unlock methods (one must be a recovery code). */
export const vaultCreateBodySchema = z.object({ methods: z.array(methodSchema).min(1).max(5) }).strict();
/** PATCH /api/vault `{ history_on }`. */
export const vaultPatchBodySchema = z.object({ history_on: z.boolean() }).strict();
/** POST /api/vault/methods `{ method }`. */
export const vaultAddMethodBodySchema = z.object({ method: methodSchema }).strict();
/**
 * PATCH /api/vault/methods `{ replaces, method }`: store `method` in place of the caller's method
 * `replaces`, of the same kind, in one transaction (the browser wraps the key again after unlocking a
 * passphrase wrap made with weaker Argon2id parameters than today's). `method` meets the floor like any new one.
 */
export const vaultReplaceMethodBodySchema = z.object({ replaces: z.string().uuid(), method: methodSchema }).strict();
/** DELETE /api/vault/methods `{ id }`. */
export const vaultRemoveMethodBodySchema = z.object({ id: z.string().uuid() }).strict();
/** POST /api/vault/passkey `{ purpose }`. */
export const vaultPasskeyBodySchema = z.object({ purpose: z.enum(["register", "unlock"]) }).strict();

/** POST /api/vault/unlock: `method_id`, or a passkey's assertion (exactly one). */
export const vaultUnlockBodySchema = z
  .object({
    method_id: z.string().uuid().optional(),
    /** A passkey's assertion for the challenge of POST /api/vault/passkey {purpose:"unlock"}. */
    assertion: z.object({ id: z.string().max(1500), type: z.literal("public-key") }).passthrough().optional(),
  })
  .strict()
  .refine((b) => (b.method_id === undefined) !== (b.assertion === undefined), "send method_id or assertion");

/**
 * Most remembered devices per vault: enough for a person's browsers, few enough that
 * Settings' list stays readable; one is revoked in Settings to remember another.
 */
export const MAX_REMEMBERED_DEVICES = 10;
/** Bytes of the server's share of a remembered device's wrap. */
export const DEVICE_SECRET_BYTES = 32;

/** POST /api/vault/devices `{ name }`: remember this device; the name describes it in Settings. */
export const vaultDeviceCreateBodySchema = z.object({ name: z.string().trim().min(1).max(80) }).strict();
/** POST /api/vault/devices/unlock and DELETE /api/vault/devices: `{ id }` of a remembered device. */
export const vaultDeviceIdBodySchema = z.object({ id: z.string().uuid() }).strict();

/** Body bytes per vault endpoint. */
export const VAULT_MAX_BODY_BYTES = {
  create: 64 * 1024,
  patch: 1024,
  addMethod: 64 * 1024,
  replaceMethod: 64 * 1024,
  removeMethod: 1024,
  passkey: 1024,
  unlock: 16 * 1024,
  device: 1024,
  rotationStart: 64 * 1024,
  rotationChats: 50 * 1024 * 1024,
  rotationFinish: 6 * 1024 * 1024,
} as const;
