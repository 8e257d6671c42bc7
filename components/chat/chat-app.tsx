"use client";

import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { planOf, useAccount } from "@/lib/browser/account/client";
import { deserialize, switchVersion, versionOf } from "@/lib/browser/chat/branches";
import type { StagedFile } from "@/lib/browser/chat/send-turn";
import type { PdfLimits } from "@/lib/browser/pdf";
import { isPdfError, READ_FAILURE_MESSAGE } from "@/lib/browser/pdf/errors";
import { readAttachment } from "@/lib/browser/files/browser";
import { isFileError } from "@/lib/browser/files/errors";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { chatsToJson, chatToMarkdown, exportFileName, type ExportableChat } from "@/lib/browser/chat/export";
import { storedPath, treeForSaving, type SavedMessage } from "@/lib/browser/chat/saved-tree";
import { displayNameFrom } from "@/lib/browser/vault/seal";
import { ChatMenu } from "./chat-menu";
import { downloadText } from "./download";
import { ChatErrorNotice } from "./chat-error";
import { IntegrityNotice } from "./integrity-notice";
import { isAppError } from "@/lib/shared/errors";
import { Composer } from "./composer";
import { forgetRenderedMarkdown, preloadMarkdown } from "./markdown";
import { MessageList } from "./message-list";
import { ModelPicker } from "./model-picker";
import { useShortcuts } from "./use-shortcuts";
import { toast } from "@/components/ui/toaster";
import { Sidebar } from "./sidebar";
import type { HistoryEntry } from "./use-chat-history";
import { useConversation } from "./use-conversation";
import { contextNotice, useConversationDocuments } from "./use-documents";
import { useDraft } from "./use-draft";
import { useKeptConversation } from "./use-kept-conversation";
import { KeptOfferNotice } from "./kept-offer";
import { MemorySuggestion } from "./memory-suggestion";
import { useMemory } from "./use-memory";
import type { KeptConversation } from "@/lib/browser/chat/kept-conversation";
import type { UiMessage } from "./types";
import { useSavedChat, type SaveInput } from "./use-saved-chat";
import { useGeneratedTitle } from "./use-generated-title";
import { TemporaryChatBanner, TemporaryChatButton } from "./temporary-chat";
import { MoveChatDialog } from "@/components/projects/move-chat-dialog";
import { ProjectList } from "@/components/projects/project-list";
import { useProjects } from "@/components/projects/use-projects";

interface ChatAppProps {
  models: ModelChoice[];
  defaultModel: string;
  /** Limits of reading a PDF in this browser (PDF_MAX_BYTES, _PAGES, _TEXT_CHARS, _PARSE_TIMEOUT_MS, _INFLATED_BYTES). */
  pdfLimits: PdfLimits;
  /** Set when the server answers with its built-in development responder instead of a real model. */
  providerNotice: string | null;
}

// docs/issues.md #12: the shortcuts list is fetched when first opened, not with the page.
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((m) => m.ShortcutsDialog), { ssr: false });
// docs/issues.md #23: the share dialog (and its sealing code) is fetched when first opened.
const ShareDialog = dynamic(() => import("@/components/share/share-dialog").then((m) => m.ShareDialog), { ssr: false });

const SMALL_SCREEN = "(max-width: 767px)";
/** How long a chat deletion can be undone, in ms (docs/issues.md #9: "within a few seconds"). */
const UNDO_MS = 5000;

/**
 * The chat (docs/product.md §2 /chat, §4 Chat, Save-history toggle and Attachment): history sidebar, model picker,
 * empty-state heading, messages with their actions (copy, regenerate, edit-and-resend, versions), composer
 * and the mistakes footer. Visitors use /api/ns/chat; signed-in users /api/ns/chat_user, and with Save
 * history on the answered turn is sealed and saved from this browser (./use-saved-chat.ts). A send shows the user's message at once; on failure the conversation goes
 * back to how it was and the typed text and staged PDF are put back (nothing lost), with Retry.
 */
export function ChatApp({ models, defaultModel, pdfLimits, providerNotice }: ChatAppProps) {
  const router = useRouter();
  const account = useAccount();
  const signedIn = account.user !== null && !account.accountDeleted;
  const documents = useConversationDocuments();
  // Saved history lives in the user's vault (docs/issues.md #8): list, search and saving of the open chat.
  const saved = useSavedChat(signedIn, documents.documents);
  const { history, search, vaultKey, saveHistory } = saved;
  const [searchOpen, setSearchOpen] = useState(false);
  // docs/issues.md #21: the open saved chat's integrity warning (null when it passed or is not a saved chat).
  const [chatIntegrity, setChatIntegrity] = useState<string | null>(null);
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  const [input, setInput] = useState("");
  const [staged, setStaged] = useState<StagedFile | null>(null);
  // The PDF being read in this browser now (its name), and the way to stop reading it.
  const [reading, setReading] = useState<string | null>(null);
  const readingAbort = useRef<AbortController | null>(null);
  const pendingRead = useRef<Promise<StagedFile | null> | null>(null);
  const [model, setModel] = useState(defaultModel);
  // docs/issues.md #23: projects (sealed like chats), the one whose chats are listed and new chats go into, a
  // temporary chat (never saved), and the title the model gives a chat after its first exchange.
  const projects = useProjects(vaultKey);
  // docs/issues.md #41: memories need saved history (the vault); temporary chats never read or write them.
  const memory = useMemory(saveHistory ? vaultKey : null);
  const [activeProjectId, setActiveProjectId] = useState<string | null>(null);
  const [temporary, setTemporary] = useState(false);
  const [moving, setMoving] = useState(false);
  const nameChat = useGeneratedTitle(history);
  const projectOf = (chatId: string | null) => (chatId ? (projects.membership.get(chatId) ?? null) : activeProjectId);
  const saveTurn = async (input: SaveInput & { userNodeId: string }) => {
    const id = await saved.save(input);
    if (input.chatId !== null) return id;
    // A new chat: into the project it was started in, then named by the model.
    if (activeProjectId) void projects.moveChat(id, activeProjectId).catch(() => toast.error("The chat was saved, but could not be put in the project"));
    const path = storedPath(input.tree).map((n) => n.message);
    const question = path.find((m) => m.role === "user")?.content;
    const answer = path.findLast((m) => m.role === "assistant")?.content;
    if (question && answer) nameChat({ chatId: id, model, question, answer, fallback: displayNameFrom(path) });
    return id;
  };
  const chat = useConversation({
    signedIn,
    saveHistory: saveHistory && !temporary,
    instructionsFor: (chatId) => projects.projects.find((p) => p.id === projectOf(chatId))?.instructions || null,
    memoriesFor: () => (temporary ? undefined : memory.forTurn()),
    model,
    documents: documents.documents,
    onResult: documents.onResult,
    onRestoreInput: (text, file) => {
      setStaged((current) => current ?? file);
      setInput((current) => (current === "" ? text : current));
    },
    onRedirect: (href) => router.push(href),
    save: saveTurn,
  });
  const { busy, error } = chat;
  // docs/issues.md #23: a signed-in user's unsent text is kept per chat, sealed with the vault key (./use-draft.ts).
  const drafts = useDraft({ signedIn, vaultKey, chatId: chat.chatId, input, setInput });
  // docs/issues.md #23: a visitor's conversation survives /pricing and /signup in this tab (./use-kept-conversation.ts).
  const plan = planOf(account);
  const restoreKept = (kept: KeptConversation<UiMessage>) => {
    chat.load(kept.tree, null);
    documents.reset(kept.documents);
    setInput((current) => (current === "" ? kept.input : current));
    setStaged((current) => current ?? kept.staged);
    if (models.some((m) => m.code === kept.model && (m.plan !== "Pro" || plan === "Pro"))) setModel(kept.model);
  };
  const keptOffer = useKeptConversation({
    loading: account.loading,
    signedIn,
    current: { tree: chat.tree, documents: documents.documents, input, staged, model },
    restore: restoreKept,
  });
  const keepKept = () => {
    if (!keptOffer) return;
    const kept = keptOffer.keep();
    restoreKept(kept);
    if (!saveHistory || !vaultKey) {
      toast("Kept on screen. Turn on Save history to save it with the next answer.");
      return;
    }
    // Kept as the user's saved chat (sealed in this browser like every turn, ./use-saved-chat.ts).
    saved.save({ chatId: null, tree: kept.tree, userNodeId: null, document: null, documents: kept.documents }).then(
      (id) => {
        chat.load(kept.tree, id);
        toast.success("Kept as a saved chat");
      },
      () => toast.error("Could not save the chat. It stays on screen and is saved with the next answer."),
    );
  };
  const openChatId = useRef<string | null>(null);
  useEffect(() => {
    openChatId.current = chat.chatId;
  }, [chat.chatId]);

  // A version switch in a saved chat is remembered too (what reopens is what was shown).
  const stepVersion = (id: string, step: number) => {
    const next = switchVersion(chat.tree, id, step);
    chat.switchVersion(id, step);
    const chatId = chat.chatId;
    if (!chatId || busy || next === chat.tree) return;
    saved.saveVersionSoon(
      chatId,
      next,
      () => openChatId.current === chatId,
      () => toast.error("Could not save which version is shown"),
    );
  };
  const isSmallScreen = () => window.matchMedia(SMALL_SCREEN).matches;

  // Answers need the Markdown renderer (react-markdown, KaTeX, highlight.js): fetch it at the first sign
  // of use (a key, a tap or a click), which comes before any answer, not during the page load, where its
  // evaluation was one of the longest tasks (docs/issues.md #12, Lighthouse total blocking time).
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

  const clearChat = () => {
    drafts.switchTo(null);
    setChatIntegrity(null);
    chat.load([], null);
    saved.startNew();
    documents.reset();
    removeStaged();
    setTemporary(false);
  };
  const newChat = () => {
    clearChat();
    // On phones the history is a drawer over the chat: the new chat should be in view (docs/issues.md #9).
    if (isSmallScreen()) setSidebarOpen(false);
  };

  const pickChat = async (id: string) => {
    if (isSmallScreen()) setSidebarOpen(false);
    if (id === chat.chatId) return;
    chat.cancel();
    setTemporary(false);
    try {
      const opened = await saved.open(id);
      drafts.switchTo(opened.chatId);
      chat.load(opened.tree, opened.chatId);
      setChatIntegrity(opened.integrity);
      // The documents stored (encrypted) with the chat go back into the conversation's context.
      documents.reset(opened.documents);
      removeStaged();
    } catch (error) {
      // docs/issues.md #21: a chat that fails its integrity check and cannot be opened is not shown, only the warning.
      if (isAppError(error, "unprocessable:integrity")) {
        chat.load([], null);
        saved.startNew();
        setChatIntegrity(error.message);
      } else console.error("Failed to load chat");
    }
  };

  // docs/issues.md #9: a confirmed deletion can be undone for UNDO_MS; the server deletes it only then (or at once
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

  // docs/issues.md #20 ("Documents"): the PDF is read here, in a Web Worker; only its text is ever sent (and so are
  // text, source and Word files since docs/issues.md #23, lib/browser/files/browser.ts). A send
  // while it is being read waits for it; if it cannot be read, the error shows and the typed text stays.
  const pickFile = (file: File) => {
    chat.setError(null);
    readingAbort.current?.abort();
    const controller = new AbortController();
    readingAbort.current = controller;
    setStaged(null);
    setReading(file.name);
    const job = (async (): Promise<StagedFile | null> => {
      try {
        const read = await readAttachment(file, pdfLimits, models.find((m) => m.code === model), controller.signal);
        if (!controller.signal.aborted) setStaged(read);
        return read;
      } catch (error) {
        if (!controller.signal.aborted) chat.setError({ text: isPdfError(error) || isFileError(error) ? error.message : READ_FAILURE_MESSAGE, link: null, detail: null, retry: null });
        return null;
      } finally {
        if (readingAbort.current === controller) {
          readingAbort.current = null;
          pendingRead.current = null;
          setReading(null);
        }
      }
    })();
    pendingRead.current = job;
  };

  const removeStaged = () => {
    readingAbort.current?.abort();
    readingAbort.current = null;
    pendingRead.current = null;
    setReading(null);
    setStaged(null);
  };

  const send = async () => {
    const text = input.trim();
    if (!text || busy) return;
    let file = staged;
    if (pendingRead.current) {
      file = await pendingRead.current;
      // Not readable: the error is shown and the typed text stays in the composer.
      if (!file) return;
    }
    setInput("");
    setStaged(null);
    void chat.send(text, file);
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
  const empty = shown.length === 0 && !staged && !reading && !busy;

  // docs/issues.md #9: export the open chat from what this browser holds (decrypted), with its versions.
  const exportChat = (kind: "md" | "json") => {
    const path = storedPath(chat.tree);
    const wire = treeForSaving(chat.tree);
    const entry = chat.chatId ? history.chats.find((c) => c.chat_id === chat.chatId) : undefined;
    const now = new Date();
    const exportable: ExportableChat = {
      id: chat.chatId ?? "unsaved",
      title: entry?.display_name ?? displayNameFrom(path.map((n) => n.message)),
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
  // docs/issues.md #23: the open chat's title stands in the chat header (a saved chat's name, else the name it
  // would be saved under).
  const openEntry = chat.chatId ? history.chats.find((c) => c.chat_id === chat.chatId) : undefined;
  const title = empty ? null : (openEntry?.display_name ?? displayNameFrom(shown.map((m) => m.message)) ?? "Untitled Chat");
  const [shareOpen, setShareOpen] = useState(false);
  // docs/issues.md #23: what a share link shows, the open saved chat's shown path as this browser holds it.
  const shareSnapshot = () => {
    const path = storedPath(chat.tree);
    const entry = chat.chatId ? history.chats.find((c) => c.chat_id === chat.chatId) : undefined;
    return {
      v: 1 as const,
      title: entry?.display_name || displayNameFrom(path.map((n) => n.message)) || "Untitled Chat",
      sharedAt: new Date().toISOString(),
      messages: path.flatMap(({ message: m }) =>
        m.role === "system" ? [] : [{ role: m.role, content: m.content, ...(m.attachmentName ? { attachmentName: m.attachmentName } : {}) }],
      ),
    };
  };
  const openProjectId = projectOf(chat.chatId);
  const openProject = projects.projects.find((p) => p.id === openProjectId) ?? null;
  // The list shows the chats of the project picked in the sidebar, else the chats outside projects.
  const listed = useMemo(
    () => history.chats.filter((c) => (projects.membership.get(c.chat_id) ?? null) === activeProjectId),
    [history.chats, projects.membership, activeProjectId],
  );

  // Keyboard shortcuts (docs/issues.md #9; components/chat/use-shortcuts.ts).
  const shortcuts = useShortcuts({
    busy,
    newChat,
    stop: chat.stop,
    toggleSidebar,
    search: () => {
      setSidebarOpen(true);
      // With the history unlocked: the search box (docs/issues.md #9). Otherwise the sidebar's first control
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
    <div data-fit-viewport className="relative flex min-h-96 flex-1 bg-white">
      <Sidebar
        open={sidebarOpen}
        onClose={toggleSidebar}
        signedIn={signedIn}
        chats={listed}
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
        onSaveHistoryChange={saved.setSaveHistory}
        vault={saved.vault}
        onLock={() => {
          saved.lock();
          setSearchOpen(false);
          setActiveProjectId(null);
          newChat();
          forgetRenderedMarkdown();
        }}
        projects={
          vaultKey && (
            <ProjectList
              projects={projects.projects}
              activeProjectId={activeProjectId}
              onSelect={(id) => {
                // Picking a project opens a new chat in it (its chats are listed below).
                clearChat();
                setActiveProjectId(id);
              }}
              onCreate={projects.create}
              onUpdate={projects.update}
              onDelete={projects.remove}
            />
          )
        }
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-ink-100 px-3 py-2 sm:px-4">
          <div className="flex items-center gap-1">
            <HeaderIconButton label="Toggle chat history" title="Chat history" onClick={toggleSidebar} sidebarOpen={sidebarOpen} path="M4 5h16v14H4zM9 5v14" />
            <HeaderIconButton label="New chat" title="New chat" onClick={newChat} sidebarOpen={sidebarOpen} path="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
            <ModelPicker models={models} value={model} onChange={setModel} onNeedsPro={() => router.push("/pricing")} plan={plan} />
          </div>
          {/* Every page has one h1: the open chat's title, or the empty state's heading. */}
          {title !== null && (
            <h1 data-testid="chat-title" title={title} className="sr-only text-sm font-semibold text-ink-900 sm:not-sr-only sm:min-w-0 sm:flex-1 sm:truncate sm:text-center">
              {title}
            </h1>
          )}
          <div className="flex min-w-0 items-center gap-1">
            {providerNotice && (
              <span className="truncate rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-200" title={providerNotice}>
                {providerNotice}
              </span>
            )}
            {openProject && (
              <span data-testid="chat-project" className="inline-flex min-w-0 max-w-40 items-center gap-1 rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700" title={`Project: ${openProject.name}`}>
                <span className="sr-only">Project: </span>
                <span className="truncate">{openProject.name}</span>
              </span>
            )}
            {signedIn && (
              <TemporaryChatButton
                on={temporary}
                onToggle={() => {
                  clearChat();
                  setTemporary(!temporary);
                }}
              />
            )}
            {shown.length > 0 && (
              <ChatMenu
                onExport={exportChat}
                onShare={chat.chatId && !busy && !temporary ? () => setShareOpen(true) : undefined}
                extraItems={chat.chatId && !temporary && projects.projects.length > 0 ? [{ label: "Move to project…", onSelect: () => setMoving(true) }] : []}
              />
            )}
          </div>
        </div>

        {title !== null && (
          <p aria-hidden="true" className="truncate border-b border-ink-100 px-4 py-1.5 text-center text-xs font-semibold text-ink-700 sm:hidden">
            {title}
          </p>
        )}
        {temporary && <TemporaryChatBanner />}
        {empty ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center">
            <h1 className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">How can I help?</h1>
            <p className="text-ink-600">Private. Encrypted. Ready to chat.</p>
            {openProject && !chat.chatId && <p className="text-sm text-ink-500">New chat in the project “{openProject.name}”: its instructions apply.</p>}
          </div>
        ) : (
          <MessageList
            messages={shown}
            stagedName={staged?.name ?? reading}
            stagedReading={reading !== null}
            stagedThumbnail={staged?.image?.url}
            onRemoveStaged={removeStaged}
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

        {chat.suggestion && !busy && !temporary && (
          <MemorySuggestion key={chat.suggestion.messageId} text={chat.suggestion.text} onSave={memory.add} onDismiss={chat.dismissSuggestion} />
        )}
        {error && <ChatErrorNotice error={error} onRetry={retry} />}
        {keptOffer && (
          <KeptOfferNotice messages={keptOffer.messages} saving={saveHistory && vaultKey !== null} onKeep={keepKept} onDiscard={keptOffer.discard} />
        )}
        <IntegrityNotice text={chatIntegrity ?? saved.historyIntegrity} />

        <Composer
          value={input}
          onChange={setInput}
          onSend={() => void send()}
          onStop={chat.stop}
          onPickFile={pickFile}
          busy={busy}
          readsImages={models.find((m) => m.code === model)?.vision ?? false}
        />
        <p className="px-4 pb-3 text-center text-xs text-ink-500">Hush may produce mistakes. Please verify information.</p>
      </div>
      {shareOpen && <ShareDialog open={shareOpen} onClose={() => setShareOpen(false)} snapshot={shareSnapshot} />}
      <MoveChatDialog
        open={moving}
        projects={projects.projects}
        current={openProjectId}
        onClose={() => setMoving(false)}
        onMove={(projectId) => {
          const id = chat.chatId;
          if (!id) return;
          const name = projects.projects.find((p) => p.id === projectId)?.name;
          projects.moveChat(id, projectId).then(
            () => toast.success(name ? `Moved to “${name}”` : "Removed from the project"),
            () => toast.error("Could not move the chat. Check your connection and try again."),
          );
        }}
      />
      {(helpShown || shortcuts.helpOpen) && <ShortcutsDialog open={shortcuts.helpOpen} onClose={() => shortcuts.setHelpOpen(false)} />}
    </div>
  );
}

/**
 * A chat-header icon button that stands in for the sidebar's own while the sidebar is hidden: on phones
 * (the drawer is closed until opened) and on desktop once the sidebar is collapsed (docs/issues.md #9: New chat
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
