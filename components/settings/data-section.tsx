"use client";

import { buttonStyles } from "@/components/ui/dialog";
import { useVault } from "@/lib/browser/vault/use-vault";
import { plural, useDataTransfer } from "./use-data-transfer";
import { LoadingBlock } from "@/components/ui/loading";

/** Settings → Your data: export and import, in this browser with the unlocked vault. */
export function DataSection() {
  const vault = useVault(true);
  const { progress, error, preview, reading, busy, fileInput, exportAll, pickFile, runImport, cancelImport } = useDataTransfer();
  const unlocked = vault.status === "unlocked";

  return (
    <section aria-labelledby="data-h" data-testid="data-section" className="mt-8 rounded-2xl border border-ink-200 bg-white">
      <h2 id="data-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-700">
        Your data
      </h2>
      <div className="space-y-6 px-5 py-4 text-sm text-ink-700">
        {(vault.status === "loading" || vault.status === "unlocking") && <LoadingBlock />}
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
                    <button type="button" className={buttonStyles.secondary} onClick={cancelImport}>
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
