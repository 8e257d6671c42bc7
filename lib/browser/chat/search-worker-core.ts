import type { apiFetch } from "@/lib/browser/api/client";
import type { ChatHistoryPage, SealedChatBatchJson } from "@/lib/shared/api/contract";
import { verifyChat, type ChatState, type Sha256Hex } from "@/lib/browser/vault/integrity";
import { loadSyncSha256 } from "@/lib/browser/vault/sha256-sync";
import { decryptField, fromBase64 } from "@/lib/browser/vault/crypto";
import { openTitle, type SealedChatJson } from "@/lib/browser/vault/seal";
import { ChatSearchIndex, type ChatSearchHit, type SearchableChat } from "./search";

// The search index's side of ./search.worker.ts, with no Worker API so tests drive it directly. On "sync" it fetches
// changed chats in pipelined batches, checks each against the page's integrity inputs, decrypts and indexes it.

export interface SearchKeys {
  key: CryptoKey;
  integrityKey: CryptoKey;
  userId: string;
}

/** Messages from the page. `run` tags a vault session: answers of an older one are dropped. */
export type SearchRequest =
  | { type: "open"; run: number; keys: SearchKeys }
  | { type: "close"; run: number }
  | { type: "sync"; run: number; seen: Record<string, number>; manifest: Record<string, number> | null }
  | { type: "upsert"; run: number; chat: SearchableChat }
  | { type: "rename"; run: number; chatId: string; title: string }
  | { type: "remove"; run: number; chatId: string }
  | { type: "search"; run: number; id: number; query: string; limit: number; exclude: string[] };

export type SearchReply =
  | { type: "progress"; run: number; indexed: number; total: number; verified: { chat_id: string; state: ChatState }[]; rejected: string[] }
  | { type: "done"; run: number; indexed: number; total: number; failed: number; error: boolean }
  | { type: "updated"; run: number; size: number; had: boolean }
  | { type: "hits"; run: number; id: number; hits: ChatSearchHit[] };

/** Batch sizes (the batch call takes at most 100 ids): the first ones small, so results show soon. */
const FIRST_BATCH = 10;
const BATCH = 50;
const IN_FLIGHT = 4;
const LIST_PAGE = 100;

async function openForSearch(key: CryptoKey, userId: string, chat: SealedChatJson): Promise<SearchableChat> {
  const chatId = chat.chat_id;
  const ordered = [...chat.messages].sort((a, b) => a.position - b.position).filter((m) => m.role !== "system");
  const messages = await Promise.all(
    ordered.map((m) => decryptField(key, { userId, chatId, position: m.position, role: m.role, field: "content" }, fromBase64(m.content_ciphertext))),
  );
  return { chat_id: chatId, title: await openTitle(key, userId, chatId, chat.display_name_ciphertext), messages, last_updated: chat.last_updated };
}

export class SearchWorkerCore {
  private index = new ChatSearchIndex();
  private keys: SearchKeys | null = null;
  private run = 0;
  private syncing = false;
  private sha: Promise<Sha256Hex | undefined> | null = null;

  constructor(
    private readonly post: (reply: SearchReply) => void,
    private readonly api: typeof apiFetch,
  ) {}

  preload(): Promise<Sha256Hex | undefined> {
    return (this.sha ??= loadSyncSha256().then((sha) => sha ?? undefined));
  }

  handle(msg: SearchRequest): void {
    if (msg.type === "open") {
      this.run = msg.run;
      this.keys = msg.keys;
      this.index = new ChatSearchIndex();
      this.syncing = false;
      return;
    }
    if (msg.run !== this.run) return;
    switch (msg.type) {
      case "close":
        this.keys = null;
        this.index = new ChatSearchIndex();
        this.run = -1;
        return;
      case "sync":
        if (this.keys && !this.syncing) void this.sync(msg.run, this.keys, msg.seen, msg.manifest);
        return;
      case "upsert": {
        const had = this.index.get(msg.chat.chat_id) !== undefined;
        this.index.upsert(msg.chat);
        this.post({ type: "updated", run: msg.run, size: this.index.size, had });
        return;
      }
      case "rename": {
        const had = this.index.get(msg.chatId) !== undefined;
        this.index.rename(msg.chatId, msg.title);
        this.post({ type: "updated", run: msg.run, size: this.index.size, had });
        return;
      }
      case "remove": {
        const had = this.index.get(msg.chatId) !== undefined;
        this.index.remove(msg.chatId);
        this.post({ type: "updated", run: msg.run, size: this.index.size, had });
        return;
      }
      case "search":
        this.post({ type: "hits", run: msg.run, id: msg.id, hits: this.index.search(msg.query, { limit: msg.limit, exclude: new Set(msg.exclude) }) });
        return;
    }
  }

  private async sync(run: number, keys: SearchKeys, seen: Record<string, number>, manifest: Record<string, number> | null): Promise<void> {
    this.syncing = true;
    const shaReady = this.preload();
    const live = () => run === this.run;
    const listed = new Set<string>();
    let total = 0;
    let settled = 0;
    let failed = 0;
    let verified: { chat_id: string; state: ChatState }[] = [];
    let rejected: string[] = [];
    const queue: string[] = [];
    let listing = true;
    let batches = 0;
    let waiting: (() => void)[] = [];
    const notify = () => {
      for (const wake of waiting) wake();
      waiting = [];
    };
    const report = () => {
      if (!live()) return;
      this.post({ type: "progress", run, indexed: settled, total, verified, rejected });
      verified = [];
      rejected = [];
    };

    const index = async (sealed: SealedChatJson & { header_ciphertext?: string | null; version?: number }) => {
      try {
        // Decrypted while it is checked; indexed only if the check passes (a chat that fails it is not searched).
        const opening = openForSearch(keys.key, keys.userId, sealed);
        opening.catch(() => undefined);
        const sha = await shaReady;
        const { state, problem } = await verifyChat(
          keys.integrityKey,
          keys.userId,
          sealed,
          { seen: seen[sealed.chat_id] ?? 0, manifest: manifest ? manifest[sealed.chat_id] : undefined },
          sha,
        );
        if (problem) {
          rejected.push(sealed.chat_id);
          return;
        }
        const chat = await opening;
        if (!live()) return;
        this.index.upsert(chat);
        verified.push({ chat_id: chat.chat_id, state });
      } catch {
        failed++;
      }
    };

    const lane = async () => {
      while (live()) {
        if (!queue.length) {
          if (!listing) return;
          await new Promise<void>((resolve) => waiting.push(resolve));
          continue;
        }
        const ids = queue.splice(0, batches++ < IN_FLIGHT ? FIRST_BATCH : BATCH);
        let batch: SealedChatBatchJson;
        try {
          batch = await this.api("chatHistoryBatch", { body: { chat_ids: ids } });
        } catch {
          failed += ids.length;
          settled += ids.length;
          report();
          continue;
        }
        const left = new Set(batch.remaining_chat_ids);
        // Asked for again first, so chats keep coming newest first.
        if (left.size) queue.unshift(...batch.remaining_chat_ids);
        await Promise.all(batch.chats.map(index));
        // Settled but not returned: deleted since the list was read.
        settled += ids.length - left.size;
        report();
      }
    };

    let error = false;
    const lanes = Array.from({ length: IN_FLIGHT }, lane);
    try {
      let cursor: string | null = null;
      do {
        const page: ChatHistoryPage = await this.api("chatHistoryList", { query: { limit: LIST_PAGE, cursor } });
        if (!live()) return;
        const todo: string[] = [];
        for (const c of page.chat_history) {
          listed.add(c.chat_id);
          const have = this.index.get(c.chat_id);
          if (!have || have.last_updated !== c.last_updated) todo.push(c.chat_id);
          else {
            settled++;
            const title = await openTitle(keys.key, keys.userId, c.chat_id, c.display_name_ciphertext).catch(() => have.title);
            if (title !== have.title) this.index.rename(c.chat_id, title ?? "");
          }
        }
        total += page.chat_history.length;
        queue.push(...todo);
        notify();
        report();
        cursor = page.next_cursor;
      } while (cursor);
      for (const id of this.index.ids()) if (!listed.has(id)) this.index.remove(id);
    } catch {
      error = true;
    } finally {
      listing = false;
      notify();
      await Promise.all(lanes);
      if (live()) {
        this.syncing = false;
        this.post({ type: "done", run, indexed: settled, total, failed, error });
      }
    }
  }
}
