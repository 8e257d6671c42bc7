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
import type { Api, BodyOf } from "@/lib/shared/api/contract";

// The vault's API shapes, sealed and opened in the browser: unlock methods, encrypted turns, decrypted history.

/** An unlock method as the vault routes take it (the contract's `methodSchema` input). */
export type MethodJson = BodyOf<Api["vaultAddMethod"]>["method"];

/** `T` with the keys `K`, which the schema defaults, always set. */
type Filled<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };
type ChatSaveBody = BodyOf<Api["chatSave"]>;
/** One message of a chat_save body; a ciphertext field is null when there is none. */
export type SealedMessageJson = Filled<ChatSaveBody["messages"][number], "attachment_ciphertext" | "steps_ciphertext">;
/** POST /api/ns/chat_save's body without `integrity`, which the caller's tracker adds. */
export type SealedTurnJson = Filled<Omit<ChatSaveBody, "integrity" | "messages">, "title_ciphertext"> & { messages: SealedMessageJson[] };

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

export interface PlainMessage {
  role: "user" | "assistant" | "system";
  content: string;
  attachment?: { name: string; text: string; image?: SavedImage } | null;
  /** An answer's web search, sealed in the field "steps"; older chats keep it in the attachment field as `{ "search": … }`. */
  search?: WebSearchRecord;
  tools?: ToolStep[];
  memoryUsed?: boolean;
}

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

export async function passphraseMethod(raw: Uint8Array<ArrayBuffer>, userId: string, passphrase: string): Promise<MethodJson> {
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const key = await passphraseKey(passphrase, salt, ARGON2ID);
  const wrapped = await wrapVaultKey(raw, key, { userId, kind: "passphrase", methodId: id });
  return { id, kind: "passphrase", label: null, wrapped_key: toBase64(wrapped), kdf: { salt: toBase64(salt), argon2: { ...ARGON2ID } } };
}

export async function recoveryMethod(raw: Uint8Array<ArrayBuffer>, userId: string): Promise<{ code: string; method: MethodJson }> {
  const code = generateRecoveryCode();
  const id = crypto.randomUUID();
  const salt = randomBytes(16);
  const wrapped = await wrapVaultKey(raw, await recoveryKey(parseRecoveryCode(code), salt), { userId, kind: "recovery", methodId: id });
  return { code, method: { id, kind: "recovery", label: null, wrapped_key: toBase64(wrapped), kdf: { salt: toBase64(salt) } } };
}

export async function passkeyMethod(
  raw: Uint8Array<ArrayBuffer>,
  userId: string,
  prfOutput: Uint8Array<ArrayBuffer>,
  prfInput: Uint8Array<ArrayBuffer>,
  registration: NonNullable<MethodJson["registration"]>,
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

/** Unwrap the vault key with a passphrase, trying every passphrase method. @throws VaultDecryptionError */
export async function unlockWithPassphrase(methods: StoredMethod[], userId: string, passphrase: string) {
  return unlockWith(methods, userId, "passphrase", (m) =>
    passphraseKey(passphrase, fromBase64(m.kdf.salt), m.kdf.argon2 ?? ARGON2ID),
  );
}

/** @throws AppError "bad_request:recovery_code", "unprocessable:vault_decrypt" */
export async function unlockWithRecovery(methods: StoredMethod[], userId: string, code: string) {
  const bytes = parseRecoveryCode(code);
  return unlockWith(methods, userId, "recovery", (m) => recoveryKey(bytes, fromBase64(m.kdf.salt)));
}

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

/** The body of POST /api/ns/chat_save for `messages` stored from `firstPosition` of `chatId`. */
export async function sealTurn(input: {
  key: CryptoKey;
  userId: string;
  chatId: string;
  create: boolean;
  firstPosition: number;
  messages: PlainMessage[];
  title?: string | null;
  replace?: boolean;
  /** The whole branch tree; null: no versions; undefined: not sent. */
  tree?: string | null;
  dates?: { createdAt: Date; lastUpdated: Date };
}): Promise<SealedTurnJson> {
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

/** Encrypt a display name exactly as sealTurn encrypts the first one, as base64. */
export async function sealTitle(key: CryptoKey, userId: string, chatId: string, title: string): Promise<string> {
  return toBase64(await encryptField(key, { field: "title", userId, chatId }, title));
}

export async function openTitle(key: CryptoKey, userId: string, chatId: string, ciphertext: string | null): Promise<string | null> {
  return ciphertext === null ? null : decryptField(key, { field: "title", userId, chatId }, fromBase64(ciphertext));
}

export interface SealedChatJson {
  chat_id: string;
  display_name_ciphertext: string | null;
  tree_ciphertext?: string | null;
  created_at?: string;
  last_updated: string;
  messages: {
    role: PlainMessage["role"];
    position: number;
    content_ciphertext: string;
    attachment_ciphertext: string | null;
    steps_ciphertext?: string | null;
  }[];
}

function stepsOf(m: PlainMessage): AnswerSteps {
  return { ...(m.search ? { search: m.search } : {}), ...(m.tools?.length ? { tools: m.tools } : {}), ...(m.memoryUsed ? { memoryUsed: true as const } : {}) };
}

/** Decrypt a saved chat: its messages, branch tree and documents. @throws VaultDecryptionError */
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
        // The schema (and zod) load only for a saved answer that searched, not in /chat's first load.
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
    tree: chat.tree_ciphertext ? await decryptField(key, { field: "tree", userId, chatId }, fromBase64(chat.tree_ciphertext)) : null,
    createdAt: chat.created_at ?? null,
    lastUpdated: chat.last_updated,
    messages,
    documents: messages.flatMap((m) => (m.attachment && !m.attachment.image ? [{ name: m.attachment.name, text: m.attachment.text }] : [])),
  };
}
