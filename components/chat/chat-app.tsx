"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { planOf, useAccount } from "@/lib/account/client";
import { ChatSendError, sendChat, type StagedFile } from "@/lib/chat/client";
import { sendErrorOutcome } from "@/lib/chat/send-errors";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { ModelPicker } from "./model-picker";
import { ShortcutsDialog } from "./shortcuts-dialog";
import { useShortcuts } from "./use-shortcuts";
import { toast } from "@/components/ui/toaster";
import { Sidebar } from "./sidebar";
import type { ModelChoice, UiMessage } from "./types";
import { useChatHistory } from "./use-chat-history";
import { contextNotice, useConversationDocuments } from "./use-documents";

interface ChatAppProps {
  models: ModelChoice[];
  defaultModel: string;
  /** Largest PDF accepted, in bytes (PDF_MAX_BYTES), checked here before reading the file. */
  maxFileBytes: number;
  /** Set when the server answers with its built-in development responder instead of a real model. */
  providerNotice: string | null;
}

interface ChatError {
  text: string;
  link: { href: string; label: string } | null;
}

const UNSUPPORTED_FILE = "Sorry, this filetype is not supported in this demo yet. Try a PDF.";
const SMALL_SCREEN = "(max-width: 767px)";

/** Same rule as the server's display name (lib/chat/history.ts), for the sidebar entry of a new chat. */
function displayName(messages: UiMessage[]): string | null {
  const first = messages.find((m) => m.role === "user")?.content.replace(/\s+/g, " ").trim();
  if (!first) return null;
  return first.length > 60 ? `${first.slice(0, 59).trimEnd()}…` : first;
}

/**
 * The chat (spec §2 /chat, §4 Chat, Save-history toggle and Attachment): history sidebar, model picker,
 * empty-state heading, messages, composer and the mistakes footer. Visitors use /api/ns/chat;
 * signed-in users /api/ns/chat_user, which saves the chat when Save history is on. A send shows the user's message at once; on failure the
 * conversation goes back to how it was and the typed text and staged PDF are put back (nothing lost).
 */
export function ChatApp({ models, defaultModel, maxFileBytes, providerNotice }: ChatAppProps) {
  const router = useRouter();
  const account = useAccount();
  const signedIn = account.user !== null && !account.accountDeleted;
  const history = useChatHistory(signedIn);
  const conversation = useConversationDocuments();
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  const [saveHistory, setSaveHistory] = useState(false);
  const [messages, setMessages] = useState<UiMessage[]>([]);
  const [chatId, setChatId] = useState<string | null>(null);
  const [input, setInput] = useState("");
  const [staged, setStaged] = useState<StagedFile | null>(null);
  const [model, setModel] = useState(defaultModel);
  const [streamingText, setStreamingText] = useState<string | null>(null);
  const [error, setError] = useState<ChatError | null>(null);
  const abort = useRef<AbortController | null>(null);
  // Set when a send is cancelled because the user moved to another chat: nothing of it is kept.
  const discarded = useRef<AbortController | null>(null);
  const busy = streamingText !== null;
  const isSmallScreen = () => window.matchMedia(SMALL_SCREEN).matches;

  const toggleSidebar = () => setSidebarOpen((open) => !(open ?? !isSmallScreen()));

  const cancelSend = () => {
    if (!abort.current) return;
    discarded.current = abort.current;
    abort.current.abort();
  };

  const newChat = () => {
    cancelSend();
    setMessages([]);
    setChatId(null);
    setStaged(null);
    setError(null);
    // On phones the history is a drawer over the chat: the new chat should be in view (issue 9).
    if (isSmallScreen()) setSidebarOpen(false);
    conversation.reset();
  };

  const pickChat = async (id: string) => {
    if (isSmallScreen()) setSidebarOpen(false);
    if (id === chatId) return;
    cancelSend();
    try {
      const res = await fetch(`/api/ns/chat_history/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      const chat = (await res.json()) as { chat_id: string; messages: (UiMessage & { attachment_name?: string })[] };
      setMessages(chat.messages.map(({ attachment_name, ...m }) => ({ ...m, attachmentName: attachment_name })));
      setChatId(chat.chat_id);
      conversation.reset();
      setStaged(null);
      setError(null);
    } catch {
      console.error("Failed to load chat");
    }
  };

  const deleteChat = async (id: string) => {
    if ((await history.remove(id)) && id === chatId) newChat();
  };

  const pickFile = (file: File) => {
    setError(null);
    if (file.type !== "application/pdf") {
      setError({ text: UNSUPPORTED_FILE, link: null });
      return;
    }
    if (file.size > maxFileBytes) {
      setError({ text: `This PDF is too large (limit ${Math.floor(maxFileBytes / (1024 * 1024))} MB).`, link: null });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => setStaged({ name: file.name, type: file.type, content: String(reader.result), size: file.size });
    reader.onerror = () => setError({ text: "Failed to read file", link: null });
    reader.readAsDataURL(file);
  };

  const send = async () => {
    const text = input.trim();
    if (!text || busy) return;
    const before = messages;
    const file = staged;
    const outgoing: UiMessage[] = [...messages, { role: "user", content: text, attachmentName: file?.name }];
    setMessages(outgoing);
    setInput("");
    setStaged(null);
    setError(null);
    setStreamingText("");

    const controller = new AbortController();
    abort.current = controller;
    let partial = "";
    try {
      const result = await sendChat({
        endpoint: signedIn ? "/api/ns/chat_user" : "/api/ns/chat",
        messages: outgoing.map(({ role, content }) => ({ role, content })),
        model,
        file,
        documents: conversation.documents,
        chatId,
        saveChat: signedIn && saveHistory,
        signal: controller.signal,
        onDelta: (piece) => {
          partial += piece;
          setStreamingText(partial);
        },
      });
      // Spec §4: after a successful send, keep the chat id and take the server's messages.
      const lastUser = result.messages.findLastIndex((m) => m.role === "user");
      setMessages(
        result.messages.map((m, i) =>
          i === lastUser ? { ...m, attachmentName: file?.name, notice: result.attachment?.notice ?? null } : { ...before[i], ...m },
        ),
      );
      setChatId(result.chat_id);
      conversation.onResult(result);
      if (result.chat_id && signedIn && saveHistory) {
        const name = history.chats.find((c) => c.chat_id === result.chat_id)?.display_name ?? displayName(outgoing);
        history.touch({ chat_id: result.chat_id, display_name: name, last_updated: new Date().toISOString() });
      }
    } catch (err) {
      if (controller.signal.aborted) {
        // Stopped by the user: keep what arrived, as a finished (shortened) answer.
        if (partial && discarded.current !== controller) setMessages([...outgoing, { role: "assistant", content: partial }]);
        return;
      }
      setMessages(before);
      setStaged(file);
      setInput((current) => (current === "" ? text : current));
      const status = err instanceof ChatSendError ? err.status : 0;
      const outcome = sendErrorOutcome(status, err instanceof Error ? err.message : "", signedIn);
      if (outcome.kind === "redirect") router.push(outcome.href);
      else setError({ text: outcome.text, link: outcome.link });
    } finally {
      // A send cancelled by New chat may settle after the next one started: leave that one alone.
      if (abort.current === controller) {
        abort.current = null;
        setStreamingText(null);
      }
    }
  };

  // Keyboard shortcuts (issue 9; components/chat/use-shortcuts.ts).
  const shortcuts = useShortcuts({
    busy,
    newChat,
    stop: () => abort.current?.abort(),
    toggleSidebar,
    search: () => {
      // Seam: the vault-based chat search replaces this with focusing its search box.
      setSidebarOpen(true);
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('aside[aria-label="Chat history"] nav button, aside[aria-label="Chat history"] a')?.focus(),
      );
    },
    copyLast: () => {
      const last = messages.findLast((m) => m.role === "assistant");
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

  const leftOut = contextNotice(conversation.context);
  const empty = messages.filter((m) => m.role !== "system").length === 0 && !staged && !busy;

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
        activeChatId={chatId}
        onPick={pickChat}
        onNew={newChat}
        onDelete={deleteChat}
        saveHistory={saveHistory}
        onSaveHistoryChange={setSaveHistory}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center justify-between gap-2 border-b border-ink-100 px-3 py-2 sm:px-4">
          <div className="flex items-center gap-1">
            <button
              type="button"
              onClick={toggleSidebar}
              aria-label="Toggle chat history"
              title="Chat history"
              className={`h-9 w-9 items-center justify-center rounded-lg text-ink-600 hover:bg-ink-100 hover:text-ink-900 ${sidebarOpen === null ? "inline-flex md:hidden" : sidebarOpen ? "hidden" : "inline-flex"}`}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d="M4 5h16v14H4zM9 5v14" />
              </svg>
            </button>
            <button
              type="button"
              onClick={newChat}
              aria-label="New chat"
              title="New chat"
              className={`h-9 w-9 items-center justify-center rounded-lg text-ink-600 hover:bg-ink-100 hover:text-ink-900 ${sidebarOpen === null ? "inline-flex md:hidden" : sidebarOpen ? "hidden" : "inline-flex"}`}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
              </svg>
            </button>
            <ModelPicker models={models} value={model} onChange={setModel} onNeedsPro={() => router.push("/pricing")} plan={planOf(account)} />
          </div>
          {providerNotice && (
            <span className="truncate rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-200" title={providerNotice}>
              {providerNotice}
            </span>
          )}
        </div>

        {empty ? (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 px-6 text-center">
            <h1 className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">How can I help?</h1>
            <p className="text-ink-600">Private. Encrypted. Ready to chat.</p>
          </div>
        ) : (
          // The page keeps a level-one heading once the empty state's heading is gone (axe).
          <h1 className="sr-only">Chat</h1>
        )}
        {!empty && (
          <MessageList messages={messages} stagedName={staged?.name ?? null} onRemoveStaged={() => setStaged(null)} streamingText={streamingText} />
        )}

        {leftOut && !empty && (
          <p role="status" data-testid="context-notice" className="mx-auto mb-2 w-full max-w-3xl px-4 text-center text-xs text-ink-600 sm:px-6">
            {leftOut}
          </p>
        )}

        {error && (
          <div role="alert" data-testid="chat-error" className="mx-auto mb-2 w-full max-w-3xl px-4 sm:px-6">
            <p className="rounded-xl border border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800">
              {error.text}
              {error.link && (
                <>
                  {" "}
                  <Link href={error.link.href} className="font-semibold underline">
                    {error.link.label}
                  </Link>
                </>
              )}
            </p>
          </div>
        )}

        <Composer
          value={input}
          onChange={setInput}
          onSend={send}
          onStop={() => abort.current?.abort()}
          onPickFile={pickFile}
          busy={busy}
        />
        <p className="px-4 pb-3 text-center text-xs text-ink-500">Hush may produce mistakes. Please verify information.</p>
      </div>
      <ShortcutsDialog open={shortcuts.helpOpen} onClose={() => shortcuts.setHelpOpen(false)} />
    </div>
  );
}
