import "client-only";
import { apiFetch } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import type { ShareInfoJson } from "@/lib/shared/share/schemas";
import { fromBase64, toBase64 } from "@/lib/browser/vault/crypto";
import { openSnapshot, sealSnapshot, shareLink, type SharedSnapshot } from "./crypto";

/**
 * Share links in the browser: seal and upload a snapshot, list and revoke the owner's
 * shares, and open a shared snapshot with the key from the page's fragment. Every call goes through the
 * typed API client (lib/browser/api/client.ts).
 */

/**
 * Seal `snapshot` under a fresh key, upload the ciphertext and make the link.
 * @returns the share's id and its link (`${origin}/share/<id>#<key>`).
 * @throws AppError from the API (401, 400 past the per-account limit, 413, network failure).
 */
export async function createShareLink(snapshot: SharedSnapshot, origin = window.location.origin): Promise<{ id: string; link: string }> {
  const { ciphertext, fragmentKey } = await sealSnapshot(snapshot);
  const created = await apiFetch("shareCreate", { body: { ciphertext: toBase64(ciphertext) } });
  return { id: created.id, link: shareLink(origin, created.id, fragmentKey) };
}

/** The caller's shares, newest first. @throws AppError from the API. */
export async function listMyShares(): Promise<ShareInfoJson[]> {
  return (await apiFetch("shareList")).shares;
}

/** Revoke one share. @returns the shares left. @throws AppError (404 when already gone). */
export async function revokeMyShare(id: string): Promise<ShareInfoJson[]> {
  return (await apiFetch("shareRevoke", { body: { id } })).shares;
}

/** What opening a share link gave. */
export type OpenedShare = { kind: "ok"; snapshot: SharedSnapshot } | { kind: "missing" } | { kind: "bad_key" } | { kind: "failed" };

/**
 * Fetch share `id` and open it with `fragmentKey`: "missing" when the server has no such share (never
 * made, or revoked), "bad_key" when the link's key does not open it, "failed" when the server could not
 * be reached.
 */
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
