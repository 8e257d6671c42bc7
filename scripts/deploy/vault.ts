/** The browser's side of saved history over the HttpsClient, for the multi-instance test and the load bench. */
import { generateVaultKey, importVaultKey } from "../../lib/browser/vault/crypto";
import { displayNameFrom } from "../../lib/browser/vault/saved-chat-rules";
import {
  openChat,
  passphraseMethod,
  recoveryMethod,
  sealTurn,
  unlockWithPassphrase,
  type PlainMessage,
  type SealedChatJson,
  type StoredMethod,
} from "../../lib/browser/vault/seal";
import type { HttpsClient } from "./https-client";

/** The key lives only here, as in the tab. */
export interface Vault {
  userId: string;
  key: CryptoKey;
  passphrase: string | null;
}

interface VaultJson {
  exists: boolean;
  history_on: boolean;
  user_id: string;
  methods: StoredMethod[];
}

/** Create the vault as the Save-history confirmation does (POST /api/vault). @throws Error on any non-2xx answer. */
export async function setUpVault(client: HttpsClient, passphrase: string | null = "a long test passphrase"): Promise<Vault> {
  const state = await client.json<VaultJson>("GET", "/api/vault");
  if (state.status !== 200 || !state.data) throw new Error(`GET /api/vault: ${state.status} ${state.body}`);
  const userId = state.data.user_id;
  const raw = generateVaultKey();
  const methods = [(await recoveryMethod(raw, userId)).method];
  if (passphrase !== null) methods.unshift(await passphraseMethod(raw, userId, passphrase));
  const created = await client.json<VaultJson>("POST", "/api/vault", { json: { methods } });
  if (created.status !== 201) throw new Error(`POST /api/vault: ${created.status} ${created.body}`);
  return { userId, key: await importVaultKey(raw), passphrase };
}

/** Unlock from another session with the passphrase. @throws VaultDecryptionError on a wrong passphrase */
export async function unlockVault(client: HttpsClient, passphrase: string): Promise<Vault & { upstream: string }> {
  const state = await client.json<VaultJson>("GET", "/api/vault");
  if (state.status !== 200 || !state.data?.exists) throw new Error(`GET /api/vault: ${state.status} ${state.body}`);
  const { raw } = await unlockWithPassphrase(state.data.methods, state.data.user_id, passphrase);
  return { userId: state.data.user_id, key: await importVaultKey(raw), passphrase, upstream: state.upstream };
}

/** Seal `messages.slice(from)` and POST /api/ns/chat_save; `sent` is the sealed body, for byte comparisons. */
export async function saveTurn(client: HttpsClient, vault: Vault, chatId: string | null, from: number, messages: PlainMessage[]) {
  const create = chatId === null;
  const id = chatId ?? crypto.randomUUID();
  const body = await sealTurn({
    key: vault.key,
    userId: vault.userId,
    chatId: id,
    create,
    firstPosition: create ? 0 : from,
    messages: create ? messages : messages.slice(from),
    title: displayNameFrom(messages),
  });
  const res = await client.json<{ chat_id: string; last_updated: string; error?: string }>("POST", "/api/ns/chat_save", { json: body });
  return { chatId: id, status: res.status, body: res.body, upstream: res.upstream, sent: body };
}

export async function readChat(client: HttpsClient, vault: Vault, chatId: string) {
  const res = await client.json<SealedChatJson>("GET", `/api/ns/chat_history/${chatId}`);
  const chat = res.status === 200 && res.data ? await openChat(vault.key, vault.userId, res.data) : null;
  return { status: res.status, body: res.body, upstream: res.upstream, chat };
}
