"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { apiFetch } from "@/lib/browser/api/client";
import { memorySealing } from "@/lib/browser/vault/sealing-loaders";
import type { MemoryFact, MemoryList } from "@/lib/browser/vault/memory";
import { MAX_MEMORIES } from "@/lib/shared/memory/limits";
import { memoriesWithinBudget } from "@/lib/shared/llm/memory-prompt";
import { isAppError } from "@/lib/shared/errors";
import type { VaultKey } from "./types";

type VaultMemory = Awaited<ReturnType<typeof memorySealing>>;

/**
 * The user's memories (docs/issues.md #41), sealed with the vault key; `vault` null: nothing loads or is sent.
 * Writes throw AppError for the caller to show.
 */
export function useMemory(vault: VaultKey | null) {
  const [list, setList] = useState<MemoryList | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const listRef = useRef<MemoryList | null>(null);

  useEffect(() => {
    listRef.current = list;
  }, [list]);

  // A turn sent before the first read settles waits for it: memories are not dropped silently.
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

  /** Apply `change` to the stored list and store it (applied again once on a 409 conflict). */
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
  /** The facts sent with a turn, or undefined when memory is off. */
  const forTurn = async (): Promise<string[] | undefined> => {
    if (vault && !listRef.current) await loading.current;
    const l = vault ? listRef.current : null;
    if (!l || !l.enabled) return undefined;
    return memoriesWithinBudget(sortedFacts(l.facts).map((f) => f.text));
  };

  return { loaded: current !== null, list: current, facts: current ? sortedFacts(current.facts) : [], warning: vault ? warning : null, add, edit, remove, setEnabled, forTurn };
}

function sortedFacts(facts: readonly MemoryFact[]): MemoryFact[] {
  return [...facts].sort((a, b) => b.at - a.at);
}
