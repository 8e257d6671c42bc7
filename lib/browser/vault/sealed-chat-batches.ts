"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import type { ChatHistoryPage, SealedChatBatchJson } from "@/lib/shared/api/contract";

/**
 * Saved chats read in batches, still sealed: the ids, then the ciphertext of many chats per
 * request. Nothing here needs the vault key; lib/browser/vault/saved-chats.ts opens what it reads (loadSavedChats).
 */

/**
 * Every saved chat's id and header version in clear, newest first, paging through
 * GET /api/ns/chat_history. `api`: the typed client (tests pass one over the route handlers).
 */
export async function listSavedChatVersions(api: typeof apiFetch = apiFetch): Promise<{ chat_id: string; version: number }[]> {
  const out: { chat_id: string; version: number }[] = [];
  let cursor: string | null = null;
  do {
    const page: ChatHistoryPage = await api("chatHistoryList", { query: { limit: 100, cursor } });
    out.push(...page.chat_history.map((c) => ({ chat_id: c.chat_id, version: c.version })));
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

/** The ids of every saved chat, newest first. */
export async function listSavedChatIds(): Promise<string[]> {
  return (await listSavedChatVersions()).map((c) => c.chat_id);
}

/**
 * Chats per POST /api/ns/chat_history/batch request, and such requests at once. The first
 * request of each lane asks for SAVED_CHATS_FIRST_BATCH only, so the first chats arrive quickly.
 */
export const SAVED_CHATS_BATCH = 50;
export const SAVED_CHATS_FIRST_BATCH = 10;
export const SAVED_CHATS_IN_FLIGHT = 2;


/**
 * Many saved chats, still sealed, in one request (POST /api/ns/chat_history/batch): at most
 * 100 ids; ids that are not the caller's chats are left out; chats left out for the response's size
 * bound come back in `remaining_chat_ids`. @throws AppError (network, refused request)
 */
export function fetchSealedChats(chatIds: readonly string[]): Promise<SealedChatBatchJson> {
  return apiFetch("chatHistoryBatch", { body: { chat_ids: [...chatIds] } });
}

/**
 * Read `chatIds` in batches of SAVED_CHATS_BATCH (the first ones smaller), SAVED_CHATS_IN_FLIGHT requests
 * at a time, asking again for what a response left out for its size bound; `onBatch` gets each response as it arrives with the
 * ids it settled (returned, or not the caller's chats any more), and may be async (the next request of
 * that lane waits for it). `stop()` true ends it after the requests under way. A failed request rejects
 * (AppError) unless `onError` takes it: then its ids count as settled and the rest go on.
 */
export async function forEachSealedChatBatch(
  chatIds: readonly string[],
  onBatch: (batch: SealedChatBatchJson, settled: string[]) => void | Promise<void>,
  options: { stop?: () => boolean; onError?: (ids: string[], error: unknown) => void } = {},
): Promise<void> {
  const queue: string[][] = [];
  for (let i = 0; i < chatIds.length; ) {
    const size = queue.length < SAVED_CHATS_IN_FLIGHT ? SAVED_CHATS_FIRST_BATCH : SAVED_CHATS_BATCH;
    queue.push(chatIds.slice(i, i + size));
    i += size;
  }
  const lane = async () => {
    for (let ids = queue.shift(); ids && !options.stop?.(); ids = queue.shift()) {
      let batch: SealedChatBatchJson;
      try {
        batch = await fetchSealedChats(ids);
      } catch (error) {
        if (!options.onError) throw error;
        options.onError(ids, error);
        continue;
      }
      const left = new Set(batch.remaining_chat_ids);
      // Asked for again first, so chats keep coming newest first.
      if (left.size) queue.unshift(batch.remaining_chat_ids);
      await onBatch(batch, ids.filter((id) => !left.has(id)));
    }
  };
  await Promise.all(Array.from({ length: SAVED_CHATS_IN_FLIGHT }, lane));
}
