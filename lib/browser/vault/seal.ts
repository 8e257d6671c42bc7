import {
  ARGON2ID,
  decryptField,
  encryptField,
  fromBase64,
  generateRecoveryCode,
  parseRecoveryCode,
  passphraseKey,
  prfKey,
  randomBytes,
  recoveryKey,
  toBase64,
  unwrapVaultKey,
  wrapVaultKey,
  type Argon2Params,
  type MethodKind,
} from "./crypto";
import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { AnswerSteps, ToolStep } from "@/lib/shared/chat/steps";

/**
 * The vault's API shapes, sealed and opened in the browser (and by tests acting as the browser):
 * unlock methods for POST /api/vault, encrypted turns for POST /api/ns/chat_save, decrypted history.
 * Pure functions over lib/browser/vault/crypto.ts: no fetch, no React.
 */

/** An unlock method as POST /api/vault and /api/vault/methods take it. */
export interface MethodJson {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrapped_key: string;
  kdf: { salt: string; argon2?: Argon2Params; prf_input?: string };
  registration?: Record<string, unknown>;
}

/** A stored method as GET /api/vault lists it. */
export interface StoredMethod {
  id: string;
  kind: MethodKind;
  label: string | null;
  wrapped_key: string;
  kdf: { salt: string; argon2?: Argon2Params; prf_input?: string };
  credential_id: string | null;
  created_at: string;
  last_used_at: string | null;
}

/**
 * A message as the chat holds it; `attachment` is a document that came with a user message, or an image
 * (`image` set, `text` ""), sealed the same way under the vault key.
 */
export interface PlainMessage {
  role: "user" | "assistant" | "system";
  content: string;
  attachment?: { name: string; text: string; image?: SavedImage } | null;
  /**
   * An answer's web search: engine, queries as sent, sources. Sealed with `tools` in the message's own field
   * "steps" (lib/shared/chat/steps.ts); chats saved before it keep it in the attachment field as `{ "search": … }`.
   */
  search?: WebSearchRecord;
  /** An answer's device-tool steps (what each sent and got back), sealed in the field "steps". */
  tools?: ToolStep[];
  /** The user's memories went with this answer's turn ("Memory used"), sealed in the field "steps". */
  memoryUsed?: boolean;
}

/** An image kept with a saved chat: the resized JPEG's data URL and its size in pixels (lib/browser/files/image.ts). */
export interface SavedImage {
  url: string;
  width: number;
  height: number;
}

function savedImageOf(value: unknown): SavedImage | undefined {
  const v = value as Partial<SavedImage> | null | undefined;
  if (!v || typeof v.url !== "string" || !v.url.startsWith("data:image/")) return undefined;
  if (typeof v.width !== "number" || typeof v.height !== "number") return undefined;
  return { url: v.url, width: v.width, height: v.height };
}

/** The passphrase method wrapping `raw`. */
export async function passphraseMethod(raw: Uint8Array<ArrayBuffer>, userId: string, passphrase: string): Promise<MethodJson> {
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const key = await passphraseKey(passphrase, salt, ARGON2ID);
  const wrapped = await wrapVaultKey(raw, key, { userId, kind: "passphrase", methodId: id });
  return { id, kind: "passphrase", label: null, wrapped_key: toBase64(wrapped), kdf: { salt: toBase64(salt), argon2: { ...ARGON2ID } } };
}

/** A new recovery code and the method wrapping `raw` under it (show the code once). */
export async function recoveryMethod(raw: Uint8Array<ArrayBuffer>, userId: string): Promise<{ code: string; method: MethodJson }> {
  const code = generateRecoveryCode();
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const wrapped = await wrapVaultKey(raw, await recoveryKey(parseRecoveryCode(code), salt), { userId, kind: "recovery", methodId: id });
  return { code, method: { id, kind: "recovery", label: null, wrapped_key: toBase64(wrapped), kdf: { salt: toBase64(salt) } } };
}

/** The passkey method wrapping `raw` under the PRF output of the passkey whose PRF input is `prfInput`. */
export async function passkeyMethod(
  raw: Uint8Array<ArrayBuffer>,
  userId: string,
  prfOutput: Uint8Array<ArrayBuffer>,
  prfInput: Uint8Array<ArrayBuffer>,
  registration: Record<string, unknown>,
  label: string | null,
): Promise<MethodJson> {
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const wrapped = await wrapVaultKey(raw, await prfKey(prfOutput, salt), { userId, kind: "passkey", methodId: id });
  return {
    id,
    kind: "passkey",
    label,
    wrapped_key: toBase64(wrapped),
    kdf: { salt: toBase64(salt), prf_input: toBase64(prfInput) },
    registration,
  };
}

/**
 * Unwrap the vault key with a passphrase, trying every passphrase method.
 * @throws VaultDecryptionError when it opens none.
 */
export async function unlockWithPassphrase(methods: StoredMethod[], userId: string, passphrase: string) {
  return unlockWith(methods, userId, "passphrase", (m) =>
    passphraseKey(passphrase, fromBase64(m.kdf.salt), m.kdf.argon2 ?? ARGON2ID),
  );
}

/** Unwrap with a recovery code. @throws AppError "bad_request:recovery_code", "unprocessable:vault_decrypt" */
export async function unlockWithRecovery(methods: StoredMethod[], userId: string, code: string) {
  const bytes = parseRecoveryCode(code);
  return unlockWith(methods, userId, "recovery", (m) => recoveryKey(bytes, fromBase64(m.kdf.salt)));
}

/** Unwrap with a passkey's PRF output (the method is the one of that credential). */
export async function unlockWithPrf(method: StoredMethod, userId: string, prfOutput: Uint8Array<ArrayBuffer>) {
  const key = await prfKey(prfOutput, fromBase64(method.kdf.salt));
  return { raw: await unwrapVaultKey(fromBase64(method.wrapped_key), key, { userId, kind: "passkey", methodId: method.id }), methodId: method.id };
}

async function unlockWith(
  methods: StoredMethod[],
  userId: string,
  kind: MethodKind,
  keyFor: (m: StoredMethod) => Promise<CryptoKey>,
): Promise<{ raw: Uint8Array<ArrayBuffer>; methodId: string }> {
  let lastError: unknown = new Error(`No ${kind} is set up.`);
  for (const m of methods.filter((x) => x.kind === kind)) {
    try {
      return { raw: await unwrapVaultKey(fromBase64(m.wrapped_key), await keyFor(m), { userId, kind, methodId: m.id }), methodId: m.id };
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * The body of POST /api/ns/chat_save for `messages` stored at `firstPosition`.. of `chatId`; a new
 * chat (create) also gets its encrypted display name.
 */
export async function sealTurn(input: {
  key: CryptoKey;
  userId: string;
  chatId: string;
  create: boolean;
  firstPosition: number;
  messages: PlainMessage[];
  title?: string | null;
  /** The stored messages from `firstPosition` on are replaced (an edited or regenerated turn). */
  replace?: boolean;
  /** The whole branch tree (lib/browser/chat/saved-tree.ts); null: no versions; undefined: not sent. */
  tree?: string | null;
  /** An imported chat's original dates (only with `create`). */
  dates?: { createdAt: Date; lastUpdated: Date };
}) {
  const { key, userId, chatId } = input;
  const sealedMessages = await Promise.all(
    input.messages.map(async (m, i) => {
      const ctx = { userId, chatId, position: input.firstPosition + i, role: m.role };
      return {
        role: m.role,
        content_ciphertext: toBase64(await encryptField(key, { ...ctx, field: "content" }, m.content)),
        attachment_ciphertext: m.attachment
          ? toBase64(
              await encryptField(
                key,
                { ...ctx, field: "attachment" },
                JSON.stringify({ name: m.attachment.name, text: m.attachment.text, ...(m.attachment.image ? { image: m.attachment.image } : {}) }),
              ),
            )
          : null,
        steps_ciphertext: m.search || m.tools?.length || m.memoryUsed ? toBase64(await encryptField(key, { ...ctx, field: "steps" }, JSON.stringify(stepsOf(m)))) : null,
      };
    }),
  );
  const title = input.title ?? null;
  return {
    chat_id: chatId,
    create: input.create,
    title_ciphertext: input.create && title !== null ? toBase64(await encryptField(key, { field: "title", userId, chatId }, title)) : null,
    first_position: input.firstPosition,
    messages: sealedMessages,
    ...(input.replace ? { replace: true } : {}),
    ...(input.tree === undefined
      ? {}
      : { tree_ciphertext: input.tree === null ? null : toBase64(await encryptField(key, { field: "tree", userId, chatId }, input.tree)) }),
    ...(input.dates ? { created_at: input.dates.createdAt.toISOString(), last_updated: input.dates.lastUpdated.toISOString() } : {}),
  };
}

/**
 * Encrypt a display name chosen by the user (rename) exactly as sealTurn encrypts the first
 * one (same key, associated data `{ field: "title", userId, chatId }`), as base64 for
 * PATCH /api/ns/chat_title; openTitle opens both.
 */
export async function sealTitle(key: CryptoKey, userId: string, chatId: string, title: string): Promise<string> {
  return toBase64(await encryptField(key, { field: "title", userId, chatId }, title));
}

/** Decrypt a display name (null stays null: "Untitled Chat"). */
export async function openTitle(key: CryptoKey, userId: string, chatId: string, ciphertext: string | null): Promise<string | null> {
  return ciphertext === null ? null : decryptField(key, { field: "title", userId, chatId }, fromBase64(ciphertext));
}

/** GET /api/ns/chat_history/{id}'s body. */
export interface SealedChatJson {
  chat_id: string;
  display_name_ciphertext: string | null;
  /** The sealed branch tree; absent or null for a chat without versions. */
  tree_ciphertext?: string | null;
  created_at?: string;
  last_updated: string;
  messages: {
    role: PlainMessage["role"];
    position: number;
    content_ciphertext: string;
    attachment_ciphertext: string | null;
    /** Absent from servers and chats from before the field. */
    steps_ciphertext?: string | null;
  }[];
}

/** The steps record sealed with an answer: what it has of its search and tool steps. */
function stepsOf(m: PlainMessage): AnswerSteps {
  return { ...(m.search ? { search: m.search } : {}), ...(m.tools?.length ? { tools: m.tools } : {}), ...(m.memoryUsed ? { memoryUsed: true as const } : {}) };
}

/**
 * Decrypt a saved chat: its messages (the active path), its branch tree when it has versions,
 * and its documents (every attachment, in order) for the conversation's context. @throws VaultDecryptionError
 */
export async function openChat(key: CryptoKey, userId: string, chat: SealedChatJson) {
  const chatId = chat.chat_id;
  const messages: PlainMessage[] = await Promise.all(
    chat.messages.map(async (m) => {
      const ctx = { userId, chatId, position: m.position, role: m.role };
      const content = await decryptField(key, { ...ctx, field: "content" }, fromBase64(m.content_ciphertext));
      let attachment: PlainMessage["attachment"] = null;
      let search: WebSearchRecord | undefined;
      if (m.attachment_ciphertext) {
        const parsed = JSON.parse(await decryptField(key, { ...ctx, field: "attachment" }, fromBase64(m.attachment_ciphertext))) as {
          name: string;
          text: string;
          image?: unknown;
          search?: unknown;
        };
        const image = savedImageOf(parsed.image);
        // The schema (and zod) load only for a saved answer that searched: not in /chat's first load (#42).
        if (parsed.search !== undefined) search = (await import("@/lib/shared/search/record")).webSearchRecordSchema.safeParse(parsed.search).data;
        else attachment = image ? { name: String(parsed.name), text: "", image } : { name: String(parsed.name), text: String(parsed.text) };
      }
      let tools: ToolStep[] | undefined;
      let memoryUsed = false;
      if (m.steps_ciphertext) {
        const raw: unknown = JSON.parse(await decryptField(key, { ...ctx, field: "steps" }, fromBase64(m.steps_ciphertext)));
        const steps = (await import("@/lib/shared/chat/steps")).answerStepsSchema.safeParse(raw).data;
        search = steps?.search ?? search;
        tools = steps?.tools?.length ? steps.tools : undefined;
        memoryUsed = steps?.memoryUsed === true;
      }
      return { role: m.role, content, attachment, ...(search ? { search } : {}), ...(tools ? { tools } : {}), ...(memoryUsed ? { memoryUsed } : {}) };
    }),
  );
  return {
    chatId,
    title: await openTitle(key, userId, chatId, chat.display_name_ciphertext),
    /** The branch tree's wire form (lib/browser/chat/saved-tree.ts), null when the chat has no versions. */
    tree: chat.tree_ciphertext ? await decryptField(key, { field: "tree", userId, chatId }, fromBase64(chat.tree_ciphertext)) : null,
    createdAt: chat.created_at ?? null,
    lastUpdated: chat.last_updated,
    messages,
    // An image is not a document: it goes back on its own message.
    documents: messages.flatMap((m) => (m.attachment && !m.attachment.image ? [{ name: m.attachment.name, text: m.attachment.text }] : [])),
  };
}
