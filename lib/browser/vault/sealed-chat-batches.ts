"use client";
import "client-only";

import { apiFetch } from "@/lib/browser/api/client";
import type { ChatHistoryPage, SealedChatBatchJson } from "@/lib/shared/api/contract";

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

export async function listSavedChatIds(): Promise<string[]> {
  return (await listSavedChatVersions()).map((c) => c.chat_id);
}

const SAVED_CHATS_BATCH = 50;
const SAVED_CHATS_FIRST_BATCH = 10;
const SAVED_CHATS_IN_FLIGHT = 2;


/** At most 100 ids; chats left out for the size bound come back in `remaining_chat_ids`. @throws AppError */
function fetchSealedChats(chatIds: readonly string[]): Promise<SealedChatBatchJson> {
  return apiFetch("chatHistoryBatch", { body: { chat_ids: [...chatIds] } });
}

/** Read `chatIds` in lanes of batches, asking again for what a response left out; `onError` may take a failure. */
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
