"use client";

import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { ChatSearchHit, SearchableChat } from "@/lib/browser/chat/search";
import type { SearchReply, SearchRequest } from "@/lib/browser/chat/search-worker-core";
import { unlockedVault } from "@/lib/browser/vault/store";
import type { VaultKey } from "@/lib/browser/vault/types";

// "Search chats" (docs/issues.md #9): a decrypted index kept in a Web Worker's memory for the vault session,
// so the page stays responsive while it loads; where no worker can start, the same code runs here.

/** Least time between two screen updates while chats are being indexed, ms. */
const PROGRESS_MS = 150;

export interface SearchState {
  status: "idle" | "loading" | "ready" | "error";
  indexed: number;
  total: number;
  /** Bumped on every change of the index, so results are recomputed. */
  version: number;
}

interface Channel {
  send(msg: SearchRequest): void;
}

/** The worker, or this thread; should the worker fail to start, what was sent since "open" is replayed here. */
function openChannel(onReply: (reply: SearchReply) => void): Channel {
  // Dropped once the worker has answered (it started).
  let log: SearchRequest[] | null = [];
  let target: Channel | null = null;
  const inThread = () => {
    const pending: SearchRequest[] = [];
    let handle: ((msg: SearchRequest) => void) | null = null;
    void Promise.all([import("@/lib/browser/chat/search-worker-core"), import("@/lib/browser/api/client")]).then(([{ SearchWorkerCore }, { apiFetch }]) => {
      const core = new SearchWorkerCore((reply) => setTimeout(() => onReply(reply), 0), apiFetch);
      handle = (msg) => core.handle(msg);
      for (const msg of pending.splice(0)) handle(msg);
    });
    return { send: (msg: SearchRequest) => (handle ? handle(msg) : void pending.push(msg)) };
  };
  if (typeof Worker !== "undefined") {
    try {
      // A classic worker: Turbopack's worker bootstrap loads chunks with importScripts(), which a module worker refuses.
      const worker = new Worker(new URL("../../lib/browser/chat/search.worker.ts", import.meta.url), { name: "hush-search" });
      worker.onmessage = (event: MessageEvent<{ hush?: string; reply: SearchReply }>) => {
        log = null;
        if (event.data?.hush === "search") onReply(event.data.reply);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        if (!log) return;
        worker.terminate();
        target = inThread();
        for (const msg of log) target.send(msg);
      };
      target = { send: (msg) => worker.postMessage({ hush: "search", msg }) };
    } catch {
      target = null;
    }
  }
  target ??= inThread();
  return {
    send(msg) {
      if (log && (msg.type === "open" || msg.type === "close")) log = [];
      log?.push(msg);
      target!.send(msg);
    },
  };
}

class SearchStore {
  private key: CryptoKey | null = null;
  private run = 0;
  private channel: Channel | null = null;
  private nextQuery = 0;
  private queries = new Map<number, (hits: ChatSearchHit[]) => void>();
  state: SearchState = { status: "idle", indexed: 0, total: 0, version: 0 };
  private listeners = new Set<() => void>();

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };

  private timer: ReturnType<typeof setTimeout> | null = null;
  private emitted = -Infinity;
  private shownIndexed = 0;

  private set(patch: Partial<SearchState>) {
    this.state = { ...this.state, ...patch, version: this.state.version + 1 };
    this.emit();
  }

  private emit() {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.emitted = performance.now();
    this.shownIndexed = this.state.indexed;
    for (const l of this.listeners) l();
  }

  /** The screen is told at most every PROGRESS_MS, but at once for the first results. */
  private progress(patch: Partial<SearchState>) {
    this.state = { ...this.state, ...patch, version: this.state.version + 1 };
    const wait = this.emitted + PROGRESS_MS - performance.now();
    if (wait <= 0 || (this.shownIndexed === 0 && this.state.indexed > 0)) this.emit();
    else this.timer ??= setTimeout(() => this.emit(), wait);
  }

  private send(msg: SearchRequest) {
    this.channel?.send(msg);
  }

  private onReply = (reply: SearchReply) => {
    if (reply.run !== this.run) return;
    switch (reply.type) {
      case "progress":
        if (reply.verified.length || reply.rejected.length) void this.adopt(reply);
        this.progress({ indexed: reply.indexed, total: reply.total });
        return;
      case "done":
        if (reply.failed) console.error(`Failed to index ${reply.failed} chat(s) for search`);
        if (reply.error) console.error("Failed to load chats for search");
        this.set({ status: reply.error ? "error" : "ready", indexed: reply.indexed, total: reply.total });
        return;
      case "updated":
        if (!reply.had) this.set({ total: Math.max(this.state.total, reply.size), indexed: Math.max(this.state.indexed, reply.size) });
        else if (reply.size < this.state.indexed) this.set({ total: Math.max(0, this.state.total - 1), indexed: reply.size });
        else this.set({});
        return;
      case "hits":
        this.queries.get(reply.id)?.(reply.hits);
        this.queries.delete(reply.id);
        return;
    }
  };

  private async adopt(reply: Extract<SearchReply, { type: "progress" }>) {
    try {
      await unlockedVault().tracker.adoptVerified(reply.verified, reply.rejected);
    } catch {
      // Locked meanwhile.
    }
  }

  reset(key: CryptoKey | null) {
    if (this.key !== null) this.send({ type: "close", run: this.run });
    this.key = key;
    this.run++;
    for (const resolve of this.queries.values()) resolve([]);
    this.queries.clear();
    this.set({ status: "idle", indexed: 0, total: 0 });
  }

  async sync(vault: VaultKey): Promise<void> {
    if (this.key !== vault.key) this.reset(vault.key);
    if (this.state.status === "loading") return;
    let inputs: ReturnType<ReturnType<typeof unlockedVault>["tracker"]["checkInputs"]>;
    try {
      inputs = unlockedVault().tracker.checkInputs();
    } catch {
      return;
    }
    this.channel ??= openChannel(this.onReply);
    if (this.state.status === "idle") {
      this.send({ type: "open", run: this.run, keys: { key: vault.key, integrityKey: inputs.integrityKey, userId: vault.userId } });
    }
    this.set({ status: "loading" });
    this.send({ type: "sync", run: this.run, seen: inputs.seen, manifest: inputs.manifest });
  }

  /** Start the worker ahead of the first search; nothing is fetched or decrypted until `sync`. */
  warm() {
    this.channel ??= openChannel(this.onReply);
  }

  search(query: string, exclude: ReadonlySet<string>, limit: number): Promise<ChatSearchHit[]> {
    if (query.trim() === "" || this.state.status === "idle" || !this.channel) return Promise.resolve([]);
    const id = this.nextQuery++;
    return new Promise((resolve) => {
      this.queries.set(id, resolve);
      this.send({ type: "search", run: this.run, id, query, limit, exclude: [...exclude] });
    });
  }

  saved(vault: VaultKey, chat: SearchableChat) {
    if (this.key !== vault.key || this.state.status === "idle") return;
    this.send({ type: "upsert", run: this.run, chat });
  }

  renamed(chatId: string, title: string) {
    if (this.state.status === "idle") return;
    this.send({ type: "rename", run: this.run, chatId, title });
  }

  deleted(chatId: string) {
    if (this.state.status === "idle") return;
    this.send({ type: "remove", run: this.run, chatId });
  }
}

/** The tab's one search index. */
export const chatSearch = new SearchStore();

const idle = chatSearch.state;

/** The search index for the unlocked vault (`vault` null: nothing is kept), with `sync` and `search`. */
export function useChatSearch(vault: VaultKey | null) {
  const state = useSyncExternalStore(chatSearch.subscribe, () => chatSearch.state, () => idle);
  useEffect(() => {
    if (!vault) {
      chatSearch.reset(null);
      return;
    }
    if (typeof requestIdleCallback === "undefined") return;
    const id = requestIdleCallback(() => chatSearch.warm(), { timeout: 5_000 });
    return () => cancelIdleCallback(id);
  }, [vault]);
  const sync = useCallback(() => {
    if (vault) void chatSearch.sync(vault);
  }, [vault]);
  const search = useCallback(
    (query: string, exclude: ReadonlySet<string>): Promise<ChatSearchHit[]> => (vault ? chatSearch.search(query, exclude, 30) : Promise.resolve([])),
    [vault],
  );
  return { state, sync, search };
}
