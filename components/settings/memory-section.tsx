"use client";

import { useMemo, useState } from "react";
import { buttonStyles } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { useMemory } from "@/lib/browser/vault/use-memory";
import { useVault } from "@/lib/browser/vault/use-vault";
import { AppError } from "@/lib/shared/errors";
import { MAX_MEMORIES, MEMORY_MAX_CHARS } from "@/lib/shared/memory/limits";
import { LoadingBlock } from "@/components/ui/loading";

const failed = (e: unknown) => (e instanceof AppError ? e.message : "Please check your connection and try again.");

/** Settings → Memory (docs/issues.md #41): facts sealed like saved chats, so memory needs saved history. */
export function MemorySection() {
  const vault = useVault(true);
  const userId = vault.info?.user_id ?? null;
  const key = vault.key;
  const historyOn = vault.info?.history_on !== false;
  const vaultKey = useMemo(() => (key && userId && historyOn ? { key, userId } : null), [key, userId, historyOn]);
  const memory = useMemory(vaultKey);
  const [draft, setDraft] = useState("");
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await action();
      toast.success(done);
    } catch (e) {
      toast.error(`Your memories were not changed: ${failed(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const enabled = memory.list?.enabled ?? true;
  const atLimit = memory.facts.length >= MAX_MEMORIES;

  return (
    <section aria-labelledby="memory-h" data-testid="memory-section" className="mt-8 rounded-2xl border border-ink-200 bg-white">
      <h2 id="memory-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-700">
        Memory
      </h2>
      <div className="space-y-4 px-5 py-4 text-sm text-ink-700">
        {(vault.status === "loading" || vault.status === "unlocking") && <LoadingBlock />}
        {vault.status === "error" && <p role="alert">Your saved history could not be loaded. Reload the page to try again.</p>}
        {(vault.status === "none" || (vault.info && !historyOn)) && (
          <p data-testid="memory-needs-history">
            Memory needs saved history: your memories are encrypted in this browser with the same key as your saved chats. Turn on Save history from
            the chat sidebar to use memory.
          </p>
        )}
        {vault.status === "locked" && historyOn && <p>Your history is locked. Unlock it above to see and change your memories.</p>}
        {vaultKey && memory.loaded && (
          <>
            <p>
              Short facts Hush sends with your chats so you need not repeat them, newest first. They are encrypted in this browser; Hush&apos;s
              server cannot read them. Nothing is remembered unless you add it here or click Save under a suggestion. Temporary chats never use
              memory.
            </p>
            {memory.warning && <p role="alert" className="text-red-700">{memory.warning}</p>}
            <label className="flex items-center gap-2 font-medium text-ink-900">
              <input type="checkbox" checked={enabled} disabled={busy} onChange={(e) => void run(() => memory.setEnabled(e.target.checked), e.target.checked ? "Memory is on" : "Memory is off")} />
              Use memory in chats
            </label>
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const text = draft.trim();
                if (!text) return;
                void run(async () => {
                  await memory.add(text);
                  setDraft("");
                }, "Memory added");
              }}
            >
              <input
                aria-label="New memory"
                value={draft}
                maxLength={MEMORY_MAX_CHARS}
                onChange={(e) => setDraft(e.target.value)}
                placeholder="e.g. I live in Auckland and prefer metric units"
                className="min-w-0 flex-1 rounded-lg border border-ink-200 px-3 py-2"
              />
              <button type="submit" className={buttonStyles.primary} disabled={busy || draft.trim() === "" || atLimit}>
                Add memory
              </button>
            </form>
            {atLimit && <p>You can keep at most {MAX_MEMORIES} memories. Delete one to add another.</p>}
            {memory.facts.length === 0 ? (
              <p className="text-ink-500">No memories yet.</p>
            ) : (
              <ul aria-label="Memories" className="divide-y divide-ink-100 rounded-lg border border-ink-100">
                {memory.facts.map((f) => (
                  <li key={f.id} className="flex items-center gap-2 px-3 py-2">
                    {editing?.id === f.id ? (
                      <form
                        className="flex flex-1 gap-2"
                        onSubmit={(e) => {
                          e.preventDefault();
                          const text = editing.text.trim();
                          if (!text) return;
                          void run(async () => {
                            await memory.edit(f.id, text);
                            setEditing(null);
                          }, "Memory saved");
                        }}
                      >
                        <input
                          aria-label="Edit memory"
                          value={editing.text}
                          maxLength={MEMORY_MAX_CHARS}
                          onChange={(e) => setEditing({ id: f.id, text: e.target.value })}
                          className="min-w-0 flex-1 rounded-lg border border-ink-200 px-2 py-1"
                        />
                        <button type="submit" className={buttonStyles.secondary} disabled={busy}>
                          Save
                        </button>
                        <button type="button" className={buttonStyles.secondary} onClick={() => setEditing(null)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      <>
                        <span className="flex-1 break-words">{f.text}</span>
                        <button type="button" className="text-xs font-medium text-brand-700" aria-label={`Edit memory: ${f.text}`} onClick={() => setEditing({ id: f.id, text: f.text })}>
                          Edit
                        </button>
                        <button
                          type="button"
                          className="text-xs font-medium text-red-700"
                          aria-label={`Delete memory: ${f.text}`}
                          disabled={busy}
                          onClick={() => void run(() => memory.remove(f.id), "Memory deleted")}
                        >
                          Delete
                        </button>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}
