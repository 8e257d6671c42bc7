import { decryptField, encryptField, fromBase64, sha256Hex, toBase64 } from "./crypto";

// Tamper-evident saved history (docs/security.md "Tamper-evident history").

export const INTEGRITY_WARNING = "Integrity warning:";

export interface ChatState {
  version: number;
  chain: string[];
  title: string | null;
  tree: string | null;
}

export interface Manifest {
  version: number;
  chats: Record<string, number>;
}

export interface Seen {
  manifest: number;
  chats: Record<string, number>;
}

export interface SealedMessageRef {
  role: string;
  content_ciphertext: string;
  attachment_ciphertext: string | null;
  steps_ciphertext?: string | null;
}

export type Sha256Hex = (bytes: Uint8Array<ArrayBuffer>) => string | Promise<string>;

const utf8 = new TextEncoder();
const hashB64 = async (b64: string | null | undefined, sha: Sha256Hex = sha256Hex) => (b64 ? sha(fromBase64(b64)) : null);

const chainStart = (chatId: string, sha: Sha256Hex) => sha(utf8.encode(`hush chat v1|${chatId}`));

// Steps are hashed only when present, so chains saved before them still verify.
export async function extendChain(
  chatId: string,
  prefix: readonly string[],
  messages: readonly SealedMessageRef[],
  sha: Sha256Hex = sha256Hex,
): Promise<string[]> {
  const out = [...prefix];
  let last = out.at(-1) ?? (await chainStart(chatId, sha));
  for (const m of messages) {
    const content = await hashB64(m.content_ciphertext, sha);
    const attachment = (await hashB64(m.attachment_ciphertext, sha)) ?? "";
    const steps = await hashB64(m.steps_ciphertext, sha);
    last = await sha(utf8.encode(`${last}|${m.role}|${content}|${attachment}${steps === null ? "" : `|${steps}`}`));
    out.push(last);
  }
  return out;
}

interface HeaderJson {
  v: number;
  n: number;
  h: string | null;
  title: string | null;
  tree: string | null;
}

export async function sealHeader(integrityKey: CryptoKey, userId: string, chatId: string, state: ChatState): Promise<string> {
  const header: HeaderJson = { v: state.version, n: state.chain.length, h: state.chain.at(-1) ?? null, title: state.title, tree: state.tree };
  return toBase64(await encryptField(integrityKey, { field: "header", userId, chatId }, JSON.stringify(header)));
}

export async function sealManifest(integrityKey: CryptoKey, userId: string, manifest: Manifest): Promise<string> {
  return toBase64(await encryptField(integrityKey, { field: "manifest", userId }, JSON.stringify({ v: manifest.version, chats: manifest.chats })));
}

export async function openManifest(
  integrityKey: CryptoKey,
  userId: string,
  sealed: { ciphertext: string; version: number } | null | undefined,
  seen: Seen,
): Promise<{ manifest: Manifest; problem: string | null }> {
  if (!sealed) {
    return seen.manifest > 0
      ? { manifest: { version: 0, chats: {} }, problem: `${INTEGRITY_WARNING} the list of your saved chats is missing; this device saw it before.` }
      : { manifest: { version: 0, chats: {} }, problem: null };
  }
  let parsed: { v: number; chats: Record<string, number> };
  try {
    parsed = JSON.parse(await decryptField(integrityKey, { field: "manifest", userId }, fromBase64(sealed.ciphertext)));
  } catch {
    return { manifest: { version: sealed.version, chats: {} }, problem: `${INTEGRITY_WARNING} the list of your saved chats does not authenticate.` };
  }
  // A write seals the version the manifest has once stored (the version it replaces, plus one).
  const manifest = { version: sealed.version, chats: parsed.chats };
  if (parsed.v !== sealed.version) return { manifest, problem: `${INTEGRITY_WARNING} the list of your saved chats has the wrong version.` };
  if (sealed.version < seen.manifest) {
    return { manifest, problem: `${INTEGRITY_WARNING} the list of your saved chats is older than one this device has seen.` };
  }
  return { manifest, problem: null };
}

export interface ChatExpectations {
  seen: number;
  manifest: number | undefined;
}

export async function verifyChat(
  integrityKey: CryptoKey,
  userId: string,
  chat: {
    chat_id: string;
    display_name_ciphertext: string | null;
    tree_ciphertext?: string | null;
    header_ciphertext?: string | null;
    version?: number;
    messages: (SealedMessageRef & { position: number })[];
  },
  expect: ChatExpectations,
  sha: Sha256Hex = sha256Hex,
): Promise<{ state: ChatState; problem: string | null }> {
  const chatId = chat.chat_id;
  const ordered = [...chat.messages].sort((a, b) => a.position - b.position);
  const chain = await extendChain(chatId, [], ordered, sha);
  const title = await hashB64(chat.display_name_ciphertext, sha);
  const tree = await hashB64(chat.tree_ciphertext, sha);
  const gaps = ordered.some((m, i) => m.position !== i);
  const warn = (what: string) => `${INTEGRITY_WARNING} ${what}`;
  if (!chat.header_ciphertext) {
    const legacy = { version: 0, chain, title, tree };
    // A chat saved before headers existed: trusted on first use, until its first write adds one.
    if (expect.seen === 0 && (expect.manifest ?? 0) === 0 && (chat.version ?? 0) === 0 && !gaps) return { state: legacy, problem: null };
    return { state: legacy, problem: warn("this chat's header is missing, so Hush cannot vouch for it.") };
  }
  let header: HeaderJson;
  try {
    header = JSON.parse(await decryptField(integrityKey, { field: "header", userId, chatId }, fromBase64(chat.header_ciphertext)));
  } catch {
    return { state: { version: 0, chain, title, tree }, problem: warn("this chat's header does not authenticate.") };
  }
  const state: ChatState = { version: header.v, chain, title, tree };
  if (gaps || header.n !== chain.length || header.h !== (chain.at(-1) ?? null)) {
    return { state, problem: warn("this chat's messages are not the ones you saved (a message was removed, reordered or replaced).") };
  }
  if (header.title !== title || header.tree !== tree) return { state, problem: warn("this chat's title or versions are not the ones you saved.") };
  if (chat.version !== undefined && chat.version !== header.v) return { state, problem: warn("this chat's version does not match its header.") };
  if (header.v < expect.seen) return { state, problem: warn("this chat is older than a version this device has seen (it was rolled back).") };
  if (expect.manifest !== undefined && header.v < expect.manifest) {
    return { state, problem: warn("this chat is older than the version your list of chats records (it was rolled back).") };
  }
  return { state, problem: null };
}

export function compareList(manifest: Manifest, list: readonly { chat_id: string; version: number }[]) {
  const listed = new Map(list.map((c) => [c.chat_id, c.version]));
  const missing = Object.keys(manifest.chats).filter((id) => !listed.has(id));
  const unknown = list.filter((c) => manifest.chats[c.chat_id] === undefined && c.version > 0).map((c) => c.chat_id);
  const older = list.filter((c) => (manifest.chats[c.chat_id] ?? 0) > c.version).map((c) => c.chat_id);
  return { missing, unknown, older };
}

export function listProblem(found: ReturnType<typeof compareList>): string | null {
  const parts: string[] = [];
  const n = (k: number) => (k === 1 ? "1 saved chat" : `${k} saved chats`);
  if (found.missing.length) parts.push(`${n(found.missing.length)} your list records ${found.missing.length === 1 ? "is" : "are"} missing`);
  if (found.unknown.length) parts.push(`${n(found.unknown.length)} you did not save appeared`);
  if (found.older.length) parts.push(`${n(found.older.length)} ${found.older.length === 1 ? "is" : "are"} older than your list records`);
  return parts.length ? `${INTEGRITY_WARNING} ${parts.join("; ")}. The server may have changed your history.` : null;
}

export function seenAfter(seen: Seen, update: { manifest?: number; chats?: Record<string, number> }): Seen {
  const chats = { ...seen.chats };
  for (const [id, v] of Object.entries(update.chats ?? {})) chats[id] = Math.max(chats[id] ?? 0, v);
  return { manifest: Math.max(seen.manifest, update.manifest ?? 0), chats };
}

export async function stateAfterWrite(
  chatId: string,
  before: ChatState | null,
  write: { from: number; messages: readonly SealedMessageRef[]; title_ciphertext?: string | null; tree_ciphertext?: string | null },
): Promise<ChatState> {
  const prefix = (before?.chain ?? []).slice(0, write.from);
  return {
    version: (before?.version ?? 0) + 1,
    chain: await extendChain(chatId, prefix, write.messages),
    title: write.title_ciphertext ? await hashB64(write.title_ciphertext) : (before?.title ?? null),
    tree: write.tree_ciphertext === undefined ? (before?.tree ?? null) : await hashB64(write.tree_ciphertext),
  };
}
