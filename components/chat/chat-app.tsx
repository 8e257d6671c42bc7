"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useRef, useState } from "react";
import { planOf, useAccount } from "@/lib/account/client";
import { ChatSendError, sendChat, type StagedFile } from "@/lib/chat/client";
import { sendErrorOutcome } from "@/lib/chat/send-errors";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { ModelPicker } from "./model-picker";
import { Sidebar } from "./sidebar";
import type { ModelChoice, UiMessage } from "./types";
import { useChatHistory } from "./use-chat-history";
import { lockVault, saveTurn, setHistoryOn, useVault, VaultActionError } from "@/lib/vault/client";
import { openChat, type SealedChatJson } from "@/lib/vault/seal";
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
  // Saved history lives in the user's vault (issue 8): the key is in this tab's memory once unlocked.
  const vault = useVault(signedIn);
  const userId = vault.info?.user_id ?? null;
  const vaultKey = useMemo(() => (vault.key && userId ? { key: vault.key, userId } : null), [vault.key, userId]);
  const history = useChatHistory(signedIn, vaultKey);
  const conversation = useConversationDocuments();
  const [sidebarOpen, setSidebarOpen] = useState<boolean | null>(null);
  // The Save history choice is remembered for the account once the vault exists.
  const saveHistory = signedIn && vault.info?.exists === true && vault.info.history_on;
  const [messages, setMessages] = useState<UiMessage[]>([]);
  const [chatId, setChatId] = useState<string | null>(null);
  // How many of the conversation's messages are already stored (chat_save appends the rest).
  const [savedCount, setSavedCount] = useState(0);
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
    setSavedCount(0);
    setStaged(null);
    setError(null);
    conversation.reset();
  };

  const pickChat = async (id: string) => {
    if (isSmallScreen()) setSidebarOpen(false);
    if (id === chatId) return;
    cancelSend();
    try {
      if (!vaultKey) throw new Error("locked");
      const res = await fetch(`/api/ns/chat_history/${encodeURIComponent(id)}`, { cache: "no-store" });
      if (!res.ok) throw new Error(String(res.status));
      const chat = await openChat(vaultKey.key, vaultKey.userId, (await res.json()) as SealedChatJson);
      setMessages(chat.messages.map(({ role, content, attachment }) => ({ role, content, attachmentName: attachment?.name })));
      setSavedCount(chat.messages.length);
      setChatId(chat.chatId);
      // The documents stored (encrypted) with the chat go back into the conversation's context.
      conversation.reset(chat.documents);
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
      const document = result.document ?? null;
      const finished = result.messages.map((m, i) =>
        i === lastUser ? { ...m, attachmentName: file?.name, notice: result.attachment?.notice ?? null } : { ...before[i], ...m },
      );
      setMessages(finished);
      conversation.onResult(result);
      if (signedIn && saveHistory) {
        // Issue 8: the turn is encrypted here and stored by POST /api/ns/chat_save; the server never
        // sees it in clear except on its way to the model.
        const stored = finished
          .filter((m) => m.role !== "system")
          .map((m, i, all) => ({ role: m.role, content: m.content, attachment: i === all.length - 2 && document ? document : null }));
        try {
          const id = await saveTurn({ chatId, from: savedCount, messages: stored, title: displayName(outgoing) });
          setChatId(id);
          setSavedCount(stored.length);
          const name = history.chats.find((c) => c.chat_id === id)?.display_name ?? displayName(outgoing);
          history.touch({ chat_id: id, display_name: name, last_updated: new Date().toISOString() });
        } catch (saveError) {
          setError({
            text: `This answer was not saved: ${saveError instanceof VaultActionError ? saveError.message : "please try again."}`,
            link: null,
          });
        }
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
        onSaveHistoryChange={(on) => {
          if (vault.info?.exists) void setHistoryOn(on).catch(() => console.error("Failed to change Save history"));
        }}
        vault={vault}
        onLock={() => {
          lockVault();
          newChat();
        }}
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
    </div>
  );
}
