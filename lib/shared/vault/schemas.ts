import { z } from "@/lib/shared/zod";
import { LOWERCASE_UUID } from "@/lib/shared/uuid";
import { ARGON2ID_FLOOR, ARGON2ID_FLOOR_TEXT } from "./argon2-params";
import { isPaddedLength } from "./padding";

// Browser-safe; the transform of `sealed` runs on the server only (Buffer).
const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_FIELD_B64 = 2_000_000;

const SEAL_OVERHEAD = 1 + 12 + 16;

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

/** A format-3 ciphertext only, for fields newer than padding (docs/issues.md #54). */
export const paddedSealed = (max = MAX_FIELD_B64) =>
  z
    .string()
    .max(max)
    .regex(B64, "must be base64")
    .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
    .refine((b) => b[0] === 3 && isPaddedLength(b.length - SEAL_OVERHEAD), "must be a padded vault ciphertext (format 3)");

const sealedKey = z
  .string()
  .max(200)
  .regex(B64, "must be base64")
  .transform((v) => new Uint8Array(Buffer.from(v, "base64")))
  .refine((b) => b.length >= SEAL_OVERHEAD && b[0] === 2, "must be a wrapped vault key (format 2)");

const b64bytes = z.string().max(200).regex(B64, "must be base64");

const BELOW_FLOOR = `below the server's floor for passphrase wraps (Argon2id ${ARGON2ID_FLOOR_TEXT}): wrap the key again with stronger parameters`;

// The floor is checked on every stored wrap; reads are not, so older wraps can be opened and wrapped again.
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

const webauthnResponse = z.object({ id: z.string().max(1500), rawId: z.string().max(1500), type: z.literal("public-key") }).passthrough();

export const methodSchema = z
  .object({
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    kind: z.enum(["passkey", "passphrase", "recovery"]),
    label: z.string().trim().max(60).nullable().default(null),
    wrapped_key: sealedKey,
    kdf: kdfSchema,
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

export const sealedMessageSchema = z
  .object({
    role: z.enum(["user", "assistant", "system"]),
    content_ciphertext: sealed(),
    attachment_ciphertext: sealed().nullable().default(null),
    steps_ciphertext: paddedSealed().nullable().default(null),
  })
  .strict();

const lowercaseUuid = z.string().regex(LOWERCASE_UUID, "must be a lowercase UUID");

const MAX_MANIFEST_B64 = 5_000_000;
const MAX_HEADER_B64 = 4000;
const version = z.number().int().min(0).max(2_000_000_000);

/** 409 "conflict:manifest" when the replaced version moved. */
export const manifestWriteSchema = z
  .object({
    ciphertext: paddedSealed(MAX_MANIFEST_B64),
    base_version: version,
    key_generation: version.default(0),
  })
  .strict();

/** 409 "conflict:chat_version" when the replaced version moved. */
export const chatIntegritySchema = z
  .object({ header_ciphertext: paddedSealed(MAX_HEADER_B64), base_version: version, manifest: manifestWriteSchema })
  .strict();

const MAX_TREE_B64 = 40_000_000;
const OLDEST_IMPORT = Date.UTC(2000, 0, 1);

const importTime = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .refine((d) => d.getTime() >= OLDEST_IMPORT && d.getTime() <= Date.now() + 60_000, "must be between 2000 and now");

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
    integrity: chatIntegritySchema.optional(),
  })
  .strict()
  .refine((b) => b.create || (b.created_at === undefined && b.last_updated === undefined), "created_at and last_updated only with create")
  .refine((b) => !b.create || !b.replace, "a new chat has nothing to replace")
  .refine((b) => !b.create || !b.integrity || b.integrity.base_version === 0, "a new chat's header replaces version 0")
  .refine((b) => !b.created_at || !b.last_updated || b.created_at <= b.last_updated, "created_at must not be after last_updated");
export const CHAT_SAVE_MAX_BODY_BYTES = 50 * 1024 * 1024;

export const vaultRotationStartBodySchema = z
  .object({ generation: version.min(1), next_key: sealedKey, methods: z.array(methodSchema).min(1).max(5) })
  .strict()
  .refine((b) => b.methods.every((m) => m.kind !== "passkey"), "passkeys are added again once the rotation is finished")
  .refine((b) => b.methods.filter((m) => m.kind === "recovery").length === 1, "the new key needs exactly one recovery code");

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

const ROTATION_CHATS_PER_REQUEST = 50;

export const vaultRotationChatsBodySchema = z
  .object({ generation: version.min(1), chats: z.array(resealedChatSchema).min(1).max(ROTATION_CHATS_PER_REQUEST) })
  .strict();

export const vaultRotationFinishBodySchema = z.object({ generation: version.min(1), manifest: manifestWriteSchema }).strict();

export const vaultCreateBodySchema = z.object({ methods: z.array(methodSchema).min(1).max(5) }).strict();
export const vaultPatchBodySchema = z.object({ history_on: z.boolean() }).strict();
export const vaultAddMethodBodySchema = z.object({ method: methodSchema }).strict();
export const vaultReplaceMethodBodySchema = z.object({ replaces: z.string().uuid(), method: methodSchema }).strict();
export const vaultRemoveMethodBodySchema = z.object({ id: z.string().uuid() }).strict();
export const vaultPasskeyBodySchema = z.object({ purpose: z.enum(["register", "unlock"]) }).strict();

export const vaultUnlockBodySchema = z
  .object({
    method_id: z.string().uuid().optional(),
    assertion: z.object({ id: z.string().max(1500), type: z.literal("public-key") }).passthrough().optional(),
  })
  .strict()
  .refine((b) => (b.method_id === undefined) !== (b.assertion === undefined), "send method_id or assertion");

export const MAX_REMEMBERED_DEVICES = 10;
export const DEVICE_SECRET_BYTES = 32;

export const vaultDeviceCreateBodySchema = z.object({ name: z.string().trim().min(1).max(80) }).strict();
export const vaultDeviceIdBodySchema = z.object({ id: z.string().uuid() }).strict();

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
