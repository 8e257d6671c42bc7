"use client";

import { useRef, useState } from "react";
import { downloadText, mapPool } from "@/components/chat/download";
import { buttonStyles } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { chatsToJson, chatsToMarkdown, exportableFromSaved, exportFileName } from "@/lib/browser/chat/export";
import { checkImportFile, importFormatError, parseChatGptExport, type ImportResult } from "@/lib/browser/chat/import-chatgpt";
import { AppError, isAppError } from "@/lib/shared/errors";
import { importChat } from "@/lib/browser/vault/saved-chats";
import { loadSavedChats } from "@/lib/browser/vault/saved-chats";
import { listSavedChatIds } from "@/lib/browser/vault/sealed-chat-batches";
import { useVault } from "@/lib/browser/vault/unlock";

type Progress = { label: string; done: number; total: number } | null;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * Settings → Your data: export every saved chat as Markdown or JSON, decrypted and written in
 * this browser (lib/browser/chat/export.ts; nothing in clear goes to the server), and import a ChatGPT data
 * export (conversations.json, lib/browser/chat/import-chatgpt.ts), each chat sealed here under the vault key and
 * stored through POST /api/ns/chat_save with its original dates. Both need the unlocked vault.
 */
export function DataSection() {
  const vault = useVault(true);
  const [progress, setProgress] = useState<Progress>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<(ImportResult & { fileName: string }) | null>(null);
  const [reading, setReading] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const busy = progress !== null || reading;

  const exportAll = async (kind: "md" | "json") => {
    setError(null);
    setProgress({ label: "Finding your chats…", done: 0, total: 0 });
    try {
      const ids = await listSavedChatIds();
      if (!ids.length) {
        toast("You have no saved chats to export yet");
        return;
      }
      setProgress({ label: "Decrypting", done: 0, total: ids.length });
      const opened = await loadSavedChats(ids, (done) => setProgress({ label: "Decrypting", done, total: ids.length }));
      const chats = opened.map(exportableFromSaved);
      const now = new Date();
      if (kind === "md") downloadText(exportFileName("all", "md", now), chatsToMarkdown(chats, now), "text/markdown");
      else downloadText(exportFileName("all", "json", now), chatsToJson(chats, now), "application/json");
      toast.success(`Exported ${plural(chats.length, "chat", "chats")} as ${kind === "md" ? "Markdown" : "JSON"}`);
    } catch (e) {
      setError(e instanceof AppError ? `The export stopped: ${e.message}` : "The export stopped. Please try again.");
    } finally {
      setProgress(null);
    }
  };

  const pickFile = async (file: File | undefined) => {
    setError(null);
    setPreview(null);
    if (!file) return;
    setReading(true);
    try {
      checkImportFile(file);
      const result = parseChatGptExport(await file.text());
      if (!result.chats.length) throw importFormatError("This file has no conversations with messages to import.");
      setPreview({ ...result, fileName: file.name });
    } catch (e) {
      setError(isAppError(e, "bad_request:import_file") ? e.message : "This file could not be read. Please try again.");
    } finally {
      setReading(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  const runImport = async () => {
    if (!preview) return;
    const chats = preview.chats;
    setPreview(null);
    setError(null);
    let done = 0;
    let failed = 0;
    let lastError: string | null = null;
    setProgress({ label: "Encrypting and saving", done, total: chats.length });
    try {
      await mapPool(chats, 3, async (chat) => {
        try {
          await importChat({ title: chat.title, messages: chat.messages, createdAt: chat.createdAt, lastUpdated: chat.updatedAt });
        } catch (e) {
          failed++;
          if (e instanceof AppError) lastError = e.message;
        }
        setProgress({ label: "Encrypting and saving", done: ++done, total: chats.length });
      });
    } finally {
      setProgress(null);
    }
    const imported = chats.length - failed;
    if (failed === 0) toast.success(`Imported ${plural(imported, "chat", "chats")} from ChatGPT`);
    else {
      toast.error(`Imported ${plural(imported, "chat", "chats")}; ${plural(failed, "chat", "chats")} could not be saved`);
      setError(`${plural(failed, "chat was", "chats were")} not imported${lastError ? `: ${lastError}` : "."} Importing the file again adds the others a second time.`);
    }
  };

  const unlocked = vault.status === "unlocked";

  return (
    <section aria-labelledby="data-h" data-testid="data-section" className="mt-8 rounded-2xl border border-ink-200 bg-white">
      <h2 id="data-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-700">
        Your data
      </h2>
      <div className="space-y-6 px-5 py-4 text-sm text-ink-700">
        {(vault.status === "loading" || vault.status === "unlocking") && <p role="status">Loading…</p>}
        {vault.status === "error" && <p role="alert">Your saved history could not be loaded. Reload the page to try again.</p>}
        {vault.status === "none" && (
          <p>Save history is off, so there is nothing to export. To import chats from ChatGPT, turn on Save history from the chat sidebar first.</p>
        )}
        {vault.status === "locked" && (
          <p data-testid="data-locked">Your history is locked. Unlock it above to export your chats or import chats from ChatGPT.</p>
        )}
        {unlocked && (
          <>
            <div>
              <h3 className="font-semibold text-ink-900">Export your chats</h3>
              <p className="mt-1">
                Every saved chat in one file, decrypted in this browser. Markdown is easy to read; JSON keeps every version of edited and regenerated
                messages.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => void exportAll("md")}>
                  Export as Markdown
                </button>
                <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => void exportAll("json")}>
                  Export as JSON
                </button>
              </div>
            </div>

            <div>
              <h3 className="font-semibold text-ink-900">Import from ChatGPT</h3>
              <p className="mt-1">
                In ChatGPT, open Settings → Data controls → Export data, then choose <code className="rounded bg-ink-100 px-1">conversations.json</code>{" "}
                from the ZIP file you receive. Each chat is encrypted in this browser before it is saved, with its original dates.
              </p>
              <div className="mt-3">
                <input
                  ref={fileInput}
                  id="import-file"
                  type="file"
                  accept=".json,application/json"
                  className="peer sr-only"
                  disabled={busy}
                  onChange={(e) => void pickFile(e.target.files?.[0])}
                />
                <label
                  htmlFor="import-file"
                  className={`${buttonStyles.secondary} cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand-500 ${busy ? "pointer-events-none opacity-50" : ""}`}
                >
                  {reading ? "Reading the file…" : "Choose conversations.json"}
                </label>
              </div>
              {preview && (
                <div data-testid="import-preview" className="mt-3 rounded-xl border border-ink-200 bg-ink-50 p-3">
                  <p className="text-ink-900">
                    <strong>{plural(preview.chats.length, "conversation", "conversations")}</strong> to import from {preview.fileName}
                    {preview.skipped > 0 && <> ({plural(preview.skipped, "empty one", "empty ones")} left out)</>}.
                  </p>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <button type="button" className={buttonStyles.primary} onClick={() => void runImport()}>
                      Import {plural(preview.chats.length, "chat", "chats")}
                    </button>
                    <button type="button" className={buttonStyles.secondary} onClick={() => setPreview(null)}>
                      Cancel
                    </button>
                  </div>
                </div>
              )}
            </div>
          </>
        )}
        {progress && (
          <div role="status" data-testid="data-progress">
            <p>
              {progress.label}
              {progress.total > 0 ? ` ${progress.done.toLocaleString("en-US")} of ${progress.total.toLocaleString("en-US")}…` : ""}
            </p>
            {progress.total > 0 && (
              <progress className="mt-2 h-2 w-full accent-brand-600" value={progress.done} max={progress.total} aria-label={progress.label} />
            )}
          </div>
        )}
        {error && (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
