"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { planOf, useAccount } from "@/lib/account/client";
import { deserialize, switchVersion, versionOf, type BranchTree } from "@/lib/chat/branches";
import { chatsToJson, chatToMarkdown, exportFileName, type ExportableChat } from "@/lib/chat/export";
import { planSave, storedPath, treeForSaving, treeFromSaved, type SavedMessage } from "@/lib/chat/saved-tree";
import { ChatMenu } from "./chat-menu";
import { downloadText } from "./download";
import type { ConversationDocument, StagedFile } from "@/lib/chat/client";
import { ChatErrorNotice } from "./chat-error";
import { Composer } from "./composer";
import { forgetRenderedMarkdown, preloadMarkdown } from "./markdown";
import { MessageList } from "./message-list";
import { ModelPicker } from "./model-picker";
import { useShortcuts } from "./use-shortcuts";
import { toast } from "@/components/ui/toaster";
import { Sidebar } from "./sidebar";
import type { ModelChoice, UiMessage } from "./types";
import { useChatHistory, type HistoryEntry } from "./use-chat-history";
import { chatSearch, useChatSearch } from "./use-chat-search";
import { useConversation } from "./use-conversation";
import { contextNotice, useConversationDocuments } from "./use-documents";
import { lockVault, saveTurn, setHistoryOn, useVault } from "@/lib/vault/client";
import { openChat, type SealedChatJson } from "@/lib/vault/seal";

interface ChatAppProps {
  models: ModelChoice[];
  defaultModel: string;
  /** Largest PDF accepted, in bytes (PDF_MAX_BYTES), checked here before reading the file. */
  maxFileBytes: number;
  /** Set when the server answers with its built-in development responder instead of a real model. */
  providerNotice: string | null;
}

// Issue 12: the shortcuts list is fetched when first opened, not with the page.
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((m) => m.ShortcutsDialog), { ssr: false });

const UNSUPPORTED_FILE = "Sorry, this filetype is not supported in this demo yet. Try a PDF.";
const SMALL_SCREEN = "(max-width: 767px)";
/** How long a chat deletion can be undone, in ms (issue 9: "within a few seconds"). */
const UNDO_MS = 5000;

/** Same rule as the server's display name (lib/chat/history.ts), for the sidebar entry of a new chat. */
function displayName(messages: UiMessage[]): string | null {
  const first = messages.find((m) => m.role === "user")?.content.replace(/\s+/g, " ").trim();
  if (!first) return null;
  return first.length > 60 ? `${first.slice(0, 59).trimEnd()}…` : first;
}

/**
 * The chat (spec §2 /chat, §4 Chat, Save-history toggle and Attachment): history sidebar, model picker,
 * empty-state heading, messages with their actions (copy, regenerate, edit-and-resend, versions), composer
 * and the mistakes footer. Visitors use /api/ns/chat; signed-in users /api/ns/chat_user, which saves the
 * chat when Save history is on. A send shows the user's message at once; on failure the conversation goes
 * back to how it was and the typed text and staged PDF are put back (nothing lost), with Retry.
 */
export function ChatApp({ models, defaultModel, maxFileBytes, providerNotice }: ChatAppProps) {
  const router = useRouter();
  const account = useAccount();
  const signedIn = account.user !== null && !account.accountDeleted;
  // Saved history lives in the user's vault (issue 8): the key is in this tab's memory once unlocked.
  const vault = useVault(signedIn);
  const userId = vault.info?.user_id ?? null;
  const vaultKey = useMemo(() => (vault.key && userId ? { key: vault.key, userId } : null), [vault.key, userId]);
  const history = useChatHistory(signedIn, vaultKey);
  const search = useChatSearch(vaultKey);
  const [searchOpen, setSearchOpen] = useState(false);
  const documents = useConversationDocuments();
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  // The Save history choice is remembered for the account once the vault exists.
  const saveHistory = signedIn && vault.info?.exists === true && vault.info.history_on;
  // The tree ids of the open chat's stored messages, in order (chat_save appends or replaces the rest).
  const savedIds = useRef<string[]>([]);
  const [input, setInput] = useState("");
  const [staged, setStaged] = useState<StagedFile | null>(null);
  const [model, setModel] = useState(defaultModel);
  const chat = useConversation({
    signedIn,
    saveHistory,
    model,
    documents: documents.documents,
    onResult: documents.onResult,
    onRestoreInput: (text, file) => {
      setStaged((current) => current ?? file);
      setInput((current) => (current === "" ? text : current));
    },
    onRedirect: (href) => router.push(href),
    // Issue 8: the finished turn is encrypted here and stored by POST /api/ns/chat_save; the server never
    // sees it in clear except on its way to the model.
    save: (input) => storeTree(input),
  });
  const { busy, error } = chat;
  const openChatId = useRef<string | null>(null);
  useEffect(() => {
    openChatId.current = chat.chatId;
  }, [chat.chatId]);

  // Issue 9: an edit, a regenerate or a version switch replaces the stored path from where it changed, and
  // the whole tree of versions is sealed with it (lib/chat/saved-tree.ts). Saves run one after another,
  // each planned against what the previous one stored.
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());
  function storeTree(input: { chatId: string | null; tree: BranchTree<UiMessage>; userNodeId: string | null; document: ConversationDocument | null }) {
    const job = saveChain.current.then(async () => {
      const { chatId, tree, userNodeId, document } = input;
      const path = storedPath(tree);
      const known = new Map(documents.documents.map((d) => [d.name, d]));
      const stored = path.map(({ id, message: m }) => ({
        role: m.role,
        content: m.content,
        attachment: id === userNodeId && document ? document : m.attachmentName ? (known.get(m.attachmentName) ?? null) : null,
      }));
      const conversation = path.map((n) => n.message);
      const plan = chatId === null ? { from: 0, replace: false } : planSave(savedIds.current, path);
      if (!plan) return chatId as string;
      const id = await saveTurn({ chatId, from: plan.from, replace: plan.replace, messages: stored, title: displayName(conversation), tree: treeForSaving(tree) });
      savedIds.current = path.map((n) => n.id);
      const name = history.chats.find((c) => c.chat_id === id)?.display_name ?? displayName(conversation);
      const lastUpdated = new Date().toISOString();
      history.touch({ chat_id: id, display_name: name, last_updated: lastUpdated });
      // An index built for search this session follows the saved turn (issue 9).
      if (vaultKey) chatSearch.saved(vaultKey, { chat_id: id, title: name, messages: stored.map((m) => m.content), last_updated: lastUpdated });
      return id;
    });
    saveChain.current = job.catch(() => undefined);
    return job;
  }

  // A version switch in a saved chat is remembered too (what reopens is what was shown), once the
  // clicking has settled.
  const switchTimer = useRef<number | null>(null);
  const stepVersion = (id: string, step: number) => {
    const next = switchVersion(chat.tree, id, step);
    chat.switchVersion(id, step);
    const chatId = chat.chatId;
    if (!chatId || !saveHistory || !vaultKey || busy || next === chat.tree) return;
    if (switchTimer.current !== null) window.clearTimeout(switchTimer.current);
    switchTimer.current = window.setTimeout(() => {
      switchTimer.current = null;
      if (openChatId.current !== chatId) return;
      storeTree({ chatId, tree: next, userNodeId: null, document: null }).catch(() => toast.error("Could not save which version is shown"));
    }, 700);
  };
  const isSmallScreen = () => window.matchMedia(SMALL_SCREEN).matches;

  // Answers need the Markdown renderer (react-markdown, KaTeX, highlight.js): fetch it at the first sign
  // of use (a key, a tap or a click), which comes before any answer, not during the page load, where its
  // evaluation was one of the longest tasks (issue 12, Lighthouse total blocking time).
  useEffect(() => {
    const events = ["keydown", "pointerdown", "touchstart"] as const;
    const preload = () => {
      events.forEach((e) => window.removeEventListener(e, preload, true));
      preloadMarkdown();
    };
    events.forEach((e) => window.addEventListener(e, preload, { capture: true, passive: true }));
    return () => events.forEach((e) => window.removeEventListener(e, preload, true));
  }, []);

  const toggleSidebar = () => setSidebarOpen((open) => !(open ?? !isSmallScreen()));

  const newChat = () => {
    chat.load([], null);
    savedIds.current = [];
    documents.reset();
    setStaged(null);
    // On phones the history is a drawer over the chat: the new chat should be in view (issue 9).
    if (isSmallScreen()) setSidebarOpen(false);
  };

  const pickChat = async (id: string) => {
    if (isSmallScreen()) setSidebarOpen(false);
    if (id === chat.chatId) return;
    chat.cancel();
    try {
      if (!vaultKey) throw new Error("locked");
      const res = await fetch(`/api/ns/chat_history/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      const saved = await openChat(vaultKey.key, vaultKey.userId, (await res.json()) as SealedChatJson);
      // Issue 9: the stored versions come back, switchable ("2 / 2") as before the reload.
      const tree = treeFromSaved(
        saved.tree,
        saved.messages.map(({ role, content, attachment }) => ({ role, content, ...(attachment ? { attachmentName: attachment.name } : {}) })),
      );
      chat.load(tree, saved.chatId);
      savedIds.current = storedPath(tree).map((n) => n.id);
      // The documents stored (encrypted) with the chat go back into the conversation's context.
      documents.reset(saved.documents);
      setStaged(null);
    } catch {
      console.error("Failed to load chat");
    }
  };

  // Issue 9: a confirmed deletion can be undone for UNDO_MS; the server deletes it only then (or at once
  // when the page is left inside that window, see useChatHistory.remove).
  const deleteChat = (entry: HistoryEntry) => {
    if (entry.chat_id === chat.chatId) newChat();
    const undo = history.remove(entry, UNDO_MS);
    const name = entry.display_name || "Untitled Chat";
    toast(`Deleted “${name.length > 40 ? `${name.slice(0, 39)}…` : name}”`, {
      duration: UNDO_MS,
      action: {
        label: "Undo",
        onClick: () => {
          if (undo()) toast.success("Chat restored");
          else toast.error("Too late to undo: the chat was already deleted");
        },
      },
    });
  };

  const renameChat = async (chatId: string, title: string) => {
    const ok = await history.rename(chatId, title);
    if (ok) toast.success("Chat renamed");
    else toast.error("Could not rename the chat. Check your connection and try again.");
    return ok;
  };

  const openSearch = (open: boolean) => {
    setSearchOpen(open);
    if (open) search.sync();
  };

  const pickFile = (file: File) => {
    chat.setError(null);
    if (file.type !== "application/pdf") {
      chat.setError({ text: UNSUPPORTED_FILE, link: null, detail: null, retry: null });
      return;
    }
    if (file.size > maxFileBytes) {
      chat.setError({ text: `This PDF is too large (limit ${Math.floor(maxFileBytes / (1024 * 1024))} MB).`, link: null, detail: null, retry: null });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setStaged({ name: file.name, type: file.type, content: String(reader.result), size: file.size });
    reader.onerror = () => chat.setError({ text: "Failed to read file", link: null, detail: null, retry: null });
    reader.readAsDataURL(file);
  };

  const send = () => {
    const text = input.trim();
    if (!text || busy) return;
    setInput("");
    setStaged(null);
    void chat.send(text, staged);
  };

  const retry = () => {
    const op = error?.retry;
    if (!op) return;
    // The failed text and PDF were put back in the composer; the retry sends them, so they leave it again.
    if (op.kind === "send") {
      setInput((current) => (current.trim() === op.text ? "" : current));
      setStaged((current) => (current === op.file ? null : current));
    }
    void chat.retry(op);
  };

  const shown = useMemo(
    () =>
      chat.shown.map(({ id, message }) => {
        const v = versionOf(chat.tree, id);
        return { id, message, versionIndex: v.index, versionCount: v.count };
      }),
    [chat.shown, chat.tree],
  );
  const empty = shown.length === 0 && !staged && !busy;

  // Issue 9: export the open chat from what this browser holds (decrypted), with its versions.
  const exportChat = (kind: "md" | "json") => {
    const path = storedPath(chat.tree);
    const wire = treeForSaving(chat.tree);
    const entry = chat.chatId ? history.chats.find((c) => c.chat_id === chat.chatId) : undefined;
    const now = new Date();
    const exportable: ExportableChat = {
      id: chat.chatId ?? "unsaved",
      title: entry?.display_name ?? displayName(path.map((n) => n.message)),
      createdAt: null,
      updatedAt: entry?.last_updated ?? now.toISOString(),
      messages: path.map(({ message: m }) => ({ role: m.role, content: m.content, attachmentName: m.attachmentName ?? null })),
      tree: wire === null ? null : deserialize<SavedMessage>(wire),
    };
    const name = exportFileName(exportable.title, kind, now);
    if (kind === "md") downloadText(name, chatToMarkdown(exportable), "text/markdown");
    else downloadText(name, chatsToJson([exportable], now), "application/json");
    toast.success(`Exported this chat as ${kind === "md" ? "Markdown" : "JSON"}`);
  };
  const leftOut = contextNotice(documents.context);

  // Keyboard shortcuts (issue 9; components/chat/use-shortcuts.ts).
  const shortcuts = useShortcuts({
    busy,
    newChat,
    stop: chat.stop,
    toggleSidebar,
    search: () => {
      setSidebarOpen(true);
      // With the history unlocked: the search box (issue 9). Otherwise the sidebar's first control
      // (the unlock form, or Sign Up for visitors).
      if (vaultKey) {
        if (searchOpen) requestAnimationFrame(() => document.querySelector<HTMLElement>('input[aria-label="Search chats"]')?.focus());
        else openSearch(true);
        return;
      }
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('aside[aria-label="Chat history"] input, aside[aria-label="Chat history"] nav button, aside[aria-label="Chat history"] a')?.focus(),
      );
    },
    copyLast: () => {
      const last = shown.findLast((m) => m.message.role === "assistant")?.message;
      if (!last) {
        toast("No answer to copy yet");
        return;
      }
      navigator.clipboard.writeText(last.content).then(
        () => toast.success("Copied the last answer"),
        () => toast.error("Could not copy: the browser refused access to the clipboard"),
      );
    },
  });
  // Once opened, the shortcuts dialog stays mounted (the native <dialog> closes and reopens in place).
  const [helpShown, setHelpShown] = useState(false);
  if (shortcuts.helpOpen && !helpShown) setHelpShown(true);

  return (
    <div className="relative flex h-[calc(100dvh-4rem)] min-h-96 bg-white">
      <Sidebar
        open={sidebarOpen}
        onClose={toggleSidebar}
        signedIn={signedIn}
        chats={history.chats}
        loading={history.loading || account.loading}
        hasMore={history.hasMore}
        onLoadMore={history.loadMore}
        activeChatId={chat.chatId}
        onPick={pickChat}
        onNew={newChat}
        onDelete={deleteChat}
        onRename={renameChat}
        searchOpen={searchOpen}
        onSearchOpenChange={openSearch}
        searchState={search.state}
        search={search.search}
        hiddenChats={history.pendingIds}
        saveHistory={saveHistory}
        onSaveHistoryChange={(on) => {
          if (vault.info?.exists) void setHistoryOn(on).catch(() => console.error("Failed to change Save history"));
        }}
        vault={vault}
        onLock={() => {
          lockVault();
          setSearchOpen(false);
          newChat();
          forgetRenderedMarkdown();
        }}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-ink-100 px-3 py-2 sm:px-4">
          <div className="flex items-center gap-1">
            <HeaderIconButton label="Toggle chat history" title="Chat history" onClick={toggleSidebar} sidebarOpen={sidebarOpen} path="M4 5h16v14H4zM9 5v14" />
            <HeaderIconButton label="New chat" title="New chat" onClick={newChat} sidebarOpen={sidebarOpen} path="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
            <ModelPicker models={models} value={model} onChange={setModel} onNeedsPro={() => router.push("/pricing")} plan={planOf(account)} />
          </div>
          <div className="flex min-w-0 items-center gap-1">
            {providerNotice && (
              <span className="truncate rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-200" title={providerNotice}>
                {providerNotice}
              </span>
            )}
            {shown.length > 0 && <ChatMenu onExport={exportChat} />}
          </div>
        </div>

        {/* Every page has one h1: the empty state's heading, else a heading only screen readers see. */}
        {!empty && <h1 className="sr-only">Chat</h1>}
        {empty ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center">
            <h1 className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">How can I help?</h1>
            <p className="text-ink-600">Private. Encrypted. Ready to chat.</p>
          </div>
        ) : (
          <MessageList
            messages={shown}
            stagedName={staged?.name ?? null}
            onRemoveStaged={() => setStaged(null)}
            streamingText={chat.streamingText}
            busy={busy}
            onEdit={chat.edit}
            onRegenerate={chat.regenerate}
            onStep={stepVersion}
          />
        )}

        {leftOut && !empty && (
          <p role="status" data-testid="context-notice" className="mx-auto mb-2 w-full max-w-3xl px-4 text-center text-xs text-ink-600 sm:px-6">
            {leftOut}
          </p>
        )}

        {error && <ChatErrorNotice error={error} onRetry={retry} />}

        <Composer
          value={input}
          onChange={setInput}
          onSend={send}
          onStop={chat.stop}
          onPickFile={pickFile}
          busy={busy}
        />
        <p className="px-4 pb-3 text-center text-xs text-ink-500">Hush may produce mistakes. Please verify information.</p>
      </div>
      {(helpShown || shortcuts.helpOpen) && <ShortcutsDialog open={shortcuts.helpOpen} onClose={() => shortcuts.setHelpOpen(false)} />}
    </div>
  );
}

/**
 * A chat-header icon button that stands in for the sidebar's own while the sidebar is hidden: on phones
 * (the drawer is closed until opened) and on desktop once the sidebar is collapsed (issue 9: New chat
 * reachable from the chat header).
 */
function HeaderIconButton(props: { label: string; title: string; onClick: () => void; sidebarOpen: boolean | null; path: string }) {
  const shown = props.sidebarOpen === null ? "inline-flex md:hidden" : props.sidebarOpen ? "hidden" : "inline-flex";
  return (
    <button
      type="button"
      onClick={props.onClick}
      aria-label={props.label}
      title={props.title}
      className={`h-9 w-9 items-center justify-center rounded-lg text-ink-600 hover:bg-ink-100 hover:text-ink-900 ${shown}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d={props.path} />
      </svg>
    </button>
  );
}
