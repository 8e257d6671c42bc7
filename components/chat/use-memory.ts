"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { memorySealing } from "@/lib/browser/vault/lazy";
import type { MemoryFact, MemoryList } from "@/lib/browser/vault/memory";
import { MAX_MEMORIES } from "@/lib/shared/memory/limits";
import { memoriesWithinBudget } from "@/lib/shared/llm/memory-prompt";
import { isAppError } from "@/lib/shared/errors";
import type { VaultKey } from "./types";

// The sealing of the list loads once a vault is open, not in /chat's first load (docs/issues.md #42).
type VaultMemory = Awaited<ReturnType<typeof memorySealing>>;

/**
 * The signed-in user's memories (docs/issues.md #41), opened with the vault key and written back sealed
 * (lib/browser/vault/memory.ts). `vault` null (a visitor, history off, locked): nothing loads, nothing is sent.
 * Every change re-reads the list first when another device wrote meanwhile (one retry on a 409).
 * Writes throw AppError for the caller to show.
 */
export function useMemory(vault: VaultKey | null) {
  const [list, setList] = useState<MemoryList | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const listRef = useRef<MemoryList | null>(null);

  useEffect(() => {
    listRef.current = list;
  }, [list]);

  // The first read of the list: a turn sent before it settles waits for it (memories are not dropped silently).
  const loading = useRef<Promise<void> | null>(null);

  useEffect(() => {
    if (!vault) return;
    let live = true;
    loading.current = memorySealing()
      .then((m) => m.loadMemory(apiFetch, vault.key, vault.userId))
      .then((loaded) => {
        if (!live) return;
        listRef.current = loaded.list;
        setList(loaded.list);
        setWarning(loaded.warning);
      })
      .catch(() => console.error("Failed to load memories"));
    return () => {
      live = false;
    };
  }, [vault]);

  /** Apply `change` to the stored list and store it (re-read and applied again once on a conflict). */
  const update = useCallback(
    async (change: (current: MemoryList, m: VaultMemory) => Omit<MemoryList, "version">) => {
      if (!vault) throw new Error("locked");
      const m = await memorySealing();
      const write = async (base: MemoryList) => m.saveMemory(apiFetch, vault.key, vault.userId, base, change(base, m));
      let stored: MemoryList;
      try {
        stored = await write(listRef.current ?? m.EMPTY_MEMORY);
      } catch (error) {
        if (!isAppError(error, "conflict")) throw error;
        stored = await write((await m.loadMemory(apiFetch, vault.key, vault.userId)).list);
      }
      listRef.current = stored;
      setList(stored);
    },
    [vault],
  );

  const add = useCallback(
    (text: string) => update((l, m) => ({ enabled: l.enabled, facts: [m.newFact(text), ...l.facts].slice(0, MAX_MEMORIES) })),
    [update],
  );
  const edit = useCallback(
    (id: string, text: string) =>
      update((l, m) => ({ enabled: l.enabled, facts: l.facts.map((f) => (f.id === id ? { ...f, text: m.normalizeFact(text), at: Date.now() } : f)) })),
    [update],
  );
  const remove = useCallback((id: string) => update((l) => ({ enabled: l.enabled, facts: l.facts.filter((f) => f.id !== id) })), [update]);
  const setEnabled = useCallback((enabled: boolean) => update((l) => ({ enabled, facts: l.facts })), [update]);

  const current = vault ? list : null;
  /** The facts sent with a turn (newest first, within the budget), or undefined when memory is off or not loaded. */
  const forTurn = async (): Promise<string[] | undefined> => {
    if (vault && !listRef.current) await loading.current;
    const l = vault ? listRef.current : null;
    if (!l || !l.enabled) return undefined;
    return memoriesWithinBudget(sortedFacts(l.facts).map((f) => f.text));
  };

  return { loaded: current !== null, list: current, facts: current ? sortedFacts(current.facts) : [], warning: vault ? warning : null, add, edit, remove, setEnabled, forTurn };
}

/** Newest first. */
function sortedFacts(facts: readonly MemoryFact[]): MemoryFact[] {
  return [...facts].sort((a, b) => b.at - a.at);
}

export type MemoryStore = ReturnType<typeof useMemory>;
