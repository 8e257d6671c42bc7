"use client";

import { useRef, useState } from "react";
import { downloadText, mapPool } from "@/lib/browser/files/download";
import { toast } from "@/components/ui/toaster";
import { chatsToJson, chatsToMarkdown, exportableFromSaved, exportFileName } from "@/lib/browser/chat/export";
import { checkImportFile, importFormatError, parseChatGptExport, type ImportResult } from "@/lib/browser/chat/import-chatgpt";
import { AppError, isAppError } from "@/lib/shared/errors";
import { importChat, loadSavedChats } from "@/lib/browser/vault/saved-chats";
import { listSavedChatIds } from "@/lib/browser/vault/sealed-chat-batches";
import { apiFetch } from "@/lib/browser/api/client";
import { loadMemory } from "@/lib/browser/vault/memory";
import { unlockedVault } from "@/lib/browser/vault/store";

type Progress = { label: string; done: number; total: number } | null;

export const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The memories for the export (docs/issues.md #41); null when they could not be read (the user is told). */
async function exportableMemories(): Promise<{ text: string; at: number }[] | null> {
  try {
    const { key, userId } = unlockedVault();
    return (await loadMemory(apiFetch, key, userId)).list.facts;
  } catch {
    return null;
  }
}

/** Settings → Your data: export every saved chat and import a ChatGPT export, both in this browser. */
export function useDataTransfer() {
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
      const memories = await exportableMemories();
      if (!ids.length && !memories?.length) {
        toast("You have no saved chats to export yet");
        return;
      }
      setProgress({ label: "Decrypting", done: 0, total: ids.length });
      const opened = await loadSavedChats(ids, (done) => setProgress({ label: "Decrypting", done, total: ids.length }));
      const chats = opened.map(exportableFromSaved);
      const now = new Date();
      if (kind === "md") downloadText(exportFileName("all", "md", now), chatsToMarkdown(chats, now, memories ?? undefined), "text/markdown");
      else downloadText(exportFileName("all", "json", now), chatsToJson(chats, now, memories ?? undefined), "application/json");
      const withMemories = memories?.length ? ` and ${plural(memories.length, "memory", "memories")}` : "";
      toast.success(`Exported ${plural(chats.length, "chat", "chats")}${withMemories} as ${kind === "md" ? "Markdown" : "JSON"}`);
      if (!memories) toast("Your memories could not be read, so this file holds your chats only.");
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

  const cancelImport = () => setPreview(null);

  return { progress, error, preview, reading, busy, fileInput, exportAll, pickFile, runImport, cancelImport };
}
