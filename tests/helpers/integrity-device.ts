import { expect } from "vitest";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { PATCH as chatTitle } from "@/app/api/ns/chat_title/route";
import { DELETE as deleteChatRoute } from "@/app/api/ns/delete_chat/route";
import { GET as vaultGet } from "@/app/api/vault/route";
import type { VaultJson } from "@/lib/shared/api/contract";
import { listSavedChatVersions } from "@/lib/browser/vault/sealed-chat-batches";
import type { Seen } from "@/lib/browser/vault/integrity";
import { IntegrityTracker } from "@/lib/browser/vault/integrity-tracker";
import { sealTitle, sealTurn, type PlainMessage, type SealedChatJson } from "@/lib/browser/vault/seal";
import { apiOverRoutes } from "./api-over-routes";
import { req, type Person } from "./vault-api";

/**
 * A "device" of docs/issues.md #21's tamper-evident history for route tests: an integrity tracker with its own
 * seen versions, writing and reading through the real route handlers as lib/browser/vault/saved-chats.ts does
 * (one attempt each: the tests look at every 409).
 */
export interface Device {
  tracker: IntegrityTracker;
  seen: Seen;
}

export async function vaultOf(p: Person): Promise<VaultJson> {
  return (await vaultGet(req("/api/vault", { cookie: p.cookie }))).json();
}

/** Every chat's id and version in clear, as the browser lists them (lib/browser/vault/sealed-chat-batches.ts). */
export const listAll = (p: Person) => listSavedChatVersions(apiOverRoutes(p));

/** A device unlocking: its tracker, the manifest and the whole list checked as lib/browser/vault/saved-chats.ts does. */
export async function unlock(p: Person, seen: Seen = { manifest: 0, chats: {} }, generation = 0): Promise<Device & { problem: string | null }> {
  const device = { seen } as Device;
  device.tracker = await IntegrityTracker.start(
    p.raw,
    p.id,
    {
      read: async () => device.seen,
      write: async (next) => {
        device.seen = next;
      },
    },
    generation,
  );
  const problem = (await device.tracker.adoptManifest((await vaultOf(p)).manifest)) ?? (await device.tracker.adoptList(await listAll(p)));
  return Object.assign(device, { problem });
}

export async function readChat(p: Person, chatId: string): Promise<SealedChatJson> {
  const res = await chatHistoryOne(req(`/api/ns/chat_history/${chatId}`, { cookie: p.cookie }), { params: Promise.resolve({ chatId }) });
  expect(res.status).toBe(200);
  return res.json();
}

export const check = async (d: Device, p: Person, chatId: string) => d.tracker.checkChat(await readChat(p, chatId));

/** Save messages as the browser does: sealed turn plus the header and manifest (one attempt; the status comes back). */
export async function save(d: Device, p: Person, chatId: string | null, from: number, messages: PlainMessage[], replace = false) {
  const create = chatId === null;
  const id = chatId ?? crypto.randomUUID();
  const body = await sealTurn({ key: p.key, userId: p.id, chatId: id, create, firstPosition: from, messages, title: create ? messages[0]!.content : null, replace });
  const integrity = await d.tracker.forWrite(id, create, { from, messages: body.messages, title_ciphertext: body.title_ciphertext });
  const res = await chatSave(req("/api/ns/chat_save", { method: "POST", cookie: p.cookie, body: { ...body, integrity: integrity.body } }));
  if (res.status === 200) await integrity.commit();
  return { id, status: res.status, error: res.status === 200 ? null : ((await res.json()) as { error: string }).error, body };
}

export async function rename(d: Device, p: Person, chatId: string, title: string) {
  const title_ciphertext = await sealTitle(p.key, p.id, chatId, title);
  const integrity = await d.tracker.forWrite(chatId, false, { from: Number.MAX_SAFE_INTEGER, messages: [], title_ciphertext });
  const res = await chatTitle(req("/api/ns/chat_title", { method: "PATCH", cookie: p.cookie, body: { chat_id: chatId, title_ciphertext, integrity: integrity.body } }));
  if (res.status === 200) await integrity.commit();
  return res.status;
}

export async function remove(d: Device, p: Person, chatId: string) {
  const manifest = await d.tracker.forDelete(chatId);
  const res = await deleteChatRoute(req("/api/ns/delete_chat", { method: "DELETE", cookie: p.cookie, body: { chat_id: chatId, manifest: manifest.body } }));
  if (res.status === 200) await manifest.commit();
  return res.status;
}

