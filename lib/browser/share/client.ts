import "client-only";
import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import type { ShareInfoJson } from "@/lib/shared/share/schemas";
import { fromBase64, toBase64 } from "@/lib/browser/vault/crypto";
import { openSnapshot, sealSnapshot, shareLink, type SharedSnapshot } from "./crypto";

/** Seal and upload `snapshot` and make its link. @throws AppError (401, 400 past the limit, 413, network) */
export async function createShareLink(snapshot: SharedSnapshot, origin = window.location.origin): Promise<{ id: string; link: string }> {
  const { ciphertext, fragmentKey } = await sealSnapshot(snapshot);
  const created = await apiFetch("shareCreate", { body: { ciphertext: toBase64(ciphertext) } });
  return { id: created.id, link: shareLink(origin, created.id, fragmentKey) };
}

export async function listMyShares(): Promise<ShareInfoJson[]> {
  return (await apiFetch("shareList")).shares;
}

export async function revokeMyShare(id: string): Promise<ShareInfoJson[]> {
  return (await apiFetch("shareRevoke", { body: { id } })).shares;
}

export type OpenedShare = { kind: "ok"; snapshot: SharedSnapshot } | { kind: "missing" } | { kind: "bad_key" } | { kind: "failed" };

/** Fetch share `id` and open it with `fragmentKey`: "missing", "bad_key" or "failed" when it cannot. */
export async function openShareLink(id: string, fragmentKey: string): Promise<OpenedShare> {
  let ciphertext: string;
  try {
    ciphertext = (await apiFetch("shareGet", { params: { shareId: id } })).ciphertext;
  } catch (error) {
    return error instanceof AppError && error.status === 404 ? { kind: "missing" } : { kind: "failed" };
  }
  const snapshot = await openSnapshot(fromBase64(ciphertext), fragmentKey);
  return snapshot ? { kind: "ok", snapshot } : { kind: "bad_key" };
}
