"use client";

import type { DeviceToolName } from "@/lib/shared/llm/device-tools";
import { useRouter } from "next/navigation";
import { createContext, use, useMemo, useState, type ReactNode } from "react";
import { planOf, useAccount } from "@/lib/browser/account/client";
import { versionOf } from "@/lib/browser/chat/branches";
import type { KeptConversation } from "@/lib/browser/chat/kept-conversation";
import { storedPath } from "@/lib/browser/chat/saved-tree";
import type { PdfLimits } from "@/lib/browser/pdf";
import { displayNameFrom } from "@/lib/browser/vault/saved-chat-rules";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { toast } from "@/components/ui/toaster";
import { createComposerText, type ComposerText } from "./composer-text";
import { forgetRenderedMarkdown } from "@/components/message/markdown";
import type { UiMessage } from "./types";
import { useAttachment } from "./use-attachment";
import { useConversation } from "./use-conversation";
import { contextNotice, useConversationDocuments } from "./use-documents";
import { useDraft } from "./use-draft";
import { useGeneratedTitle } from "./use-generated-title";
import { useKeptConversation } from "./use-kept-conversation";
import { useMarkdownPreload } from "./use-markdown-preload";
import { useMemory } from "@/lib/browser/vault/use-memory";
import { useOpenChat } from "./use-open-chat";
import { useProjectScope } from "./use-project-scope";
import { useSavedChat, type SaveInput } from "./use-saved-chat";
import { useChatShortcuts } from "./use-chat-shortcuts";

export interface ChatAppProps {
  models: ModelChoice[];
  defaultModel: string;
  pdfLimits: PdfLimits;
  /** Set when the server answers with its built-in development responder. */
  providerNotice: string | null;
  /** CHAT_DEVICE_TOOLS (docs/issues.md #50). */
  deviceTools: DeviceToolName[];
  /** Null with CODE_EXECUTION=off (docs/issues.md #51). */
  codeExecution: { timeoutMs: number } | null;
}

/** Everything the chat screen shows and does. */
export type ChatState = ReturnType<typeof useChatState>;

const ChatContext = createContext<ChatState | null>(null);

/** Holds the chat screen's state and actions for the components under it (useChat). */
export function ChatProvider({ children, ...props }: ChatAppProps & { children: ReactNode }) {
  return <ChatContext value={useChatState(props)}>{children}</ChatContext>;
}

/** The chat screen's state and actions. @throws Error outside a ChatProvider. */
export function useChat(): ChatState {
  const state = use(ChatContext);
  if (!state) throw new Error("useChat outside ChatProvider");
  return state;
}

/** The chat's state (docs/product.md §2, §4). */
function useChatState({ models, defaultModel, pdfLimits, providerNotice, deviceTools, codeExecution }: ChatAppProps) {
  const router = useRouter();
  const account = useAccount();
  const signedIn = account.user !== null && !account.accountDeleted;
  const plan = planOf(account);
  const documents = useConversationDocuments();
  const saved = useSavedChat(signedIn, documents.documents);
  const { history, search, vaultKey, saveHistory } = saved;
  const [searchOpen, setSearchOpen] = useState(false);
  // The composer's text is not state here: a keystroke must not re-render every consumer of the context.
  const [composer] = useState(createComposerText);
  const attachment = useAttachment(pdfLimits);
  const [model, setModel] = useState(defaultModel);
  const scope = useProjectScope(vaultKey, history.chats, pdfLimits);
  const memory = useMemory(saveHistory ? vaultKey : null);
  const [temporary, setTemporary] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [moving, setMoving] = useState(false);
  const nameChat = useGeneratedTitle(history);
  const saveTurn = async (turn: SaveInput & { userNodeId: string }) => {
    const id = await saved.save(turn);
    if (turn.chatId !== null) return id;
    const projectId = scope.activeProjectId;
    if (projectId) void scope.projects.moveChat(id, projectId).catch(() => toast.error("The chat was saved, but could not be put in the project"));
    const path = storedPath(turn.tree).map((n) => n.message);
    const question = path.find((m) => m.role === "user")?.content;
    const answer = path.findLast((m) => m.role === "assistant")?.content;
    if (question && answer) nameChat({ chatId: id, model, question, answer, fallback: displayNameFrom(path) });
    return id;
  };
  const chat = useConversation({
    deviceTools,
    // "Run code" is a tool call: not offered for a model that calls no functions.
    codeExecution: models.find((m) => m.code === model)?.functionCalling === false ? null : codeExecution,
    signedIn,
    saveHistory: saveHistory && !temporary,
    instructionsFor: (chatId) => scope.projectById(scope.projectOf(chatId))?.instructions || null,
    memoriesFor: async () => (temporary ? undefined : memory.forTurn()),
    knowledgeFor: (chatId, question) => scope.files.passagesFor(scope.projectOf(chatId), question),
    model,
    documents: documents.documents,
    onResult: documents.onResult,
    onRestoreInput: (text, file) => {
      attachment.setStaged((current) => current ?? file);
      composer.set((current) => (current === "" ? text : current));
    },
    onRedirect: (href) => router.push(href),
    save: saveTurn,
  });
  const drafts = useDraft({ signedIn, vaultKey, chatId: chat.chatId, composer });
  const open = useOpenChat({ chat, saved, drafts, documents, removeStaged: attachment.remove, endTemporary: () => setTemporary(false) });
  const kept = useKeptOffer({ models, plan, model, setModel, composer, attachment, chat, documents, saved, loading: account.loading, signedIn });
  useMarkdownPreload();

  const pickFile = (file: File) => {
    chat.setError(null);
    attachment.pick(file, models.find((m) => m.code === model), (text) => chat.setError({ text, link: null, detail: null, retry: null }));
  };
  const send = async () => {
    const text = composer.get().trim();
    if (!text || chat.busy) return;
    let file = attachment.staged;
    const pending = attachment.pending();
    if (pending) {
      file = await pending;
      if (!file) return;
    }
    composer.set("");
    attachment.setStaged(null);
    void chat.send(text, file);
  };
  const retry = () => {
    const op = chat.error?.retry;
    if (!op) return;
    // The failed text and file were put back in the composer; the retry sends them, so they leave it again.
    if (op.kind === "send") {
      composer.set((current) => (current.trim() === op.text ? "" : current));
      attachment.setStaged((current) => (current === op.file ? null : current));
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
  const empty = shown.length === 0 && !attachment.staged && !attachment.reading && !chat.busy;
  const openEntry = chat.chatId ? history.chats.find((c) => c.chat_id === chat.chatId) : undefined;
  const title = empty ? null : (openEntry?.display_name ?? displayNameFrom(shown.map((m) => m.message)) ?? "Untitled Chat");
  const openProjectId = scope.projectOf(chat.chatId);
  const openSearch = (on: boolean) => {
    setSearchOpen(on);
    if (on) search.sync();
  };
  const lock = () => {
    saved.lock();
    setSearchOpen(false);
    scope.setActiveProjectId(null);
    open.newChat();
    forgetRenderedMarkdown();
  };
  const shortcuts = useChatShortcuts({ chat, open, shown, searchOpen, openSearch, unlocked: vaultKey !== null });

  return {
    models, model, setModel, plan, providerNotice, account, signedIn,
    saved, chat, documents, attachment, composer, pickFile, send, retry, shown, empty, title, memory,
    leftOut: contextNotice(documents.context),
    open, scope, openProjectId, openProject: scope.projectById(openProjectId), searchOpen, openSearch, lock, temporary, setTemporary,
    kept, shareOpen, setShareOpen, moving, setMoving, shortcuts,
  };
}

interface KeptOfferOptions {
  models: ModelChoice[];
  plan: ReturnType<typeof planOf>;
  model: string;
  setModel: (model: string) => void;
  composer: ComposerText;
  attachment: ReturnType<typeof useAttachment>;
  chat: ReturnType<typeof useConversation>;
  documents: ReturnType<typeof useConversationDocuments>;
  saved: ReturnType<typeof useSavedChat>;
  loading: boolean;
  signedIn: boolean;
}

/** A visitor's conversation kept through sign-in is offered; "Keep it" restores it and saves it with Save history on. */
function useKeptOffer({ models, plan, model, setModel, composer, attachment, chat, documents, saved, loading, signedIn }: KeptOfferOptions) {
  const restore = (kept: KeptConversation<UiMessage>) => {
    chat.load(kept.tree, null);
    documents.reset(kept.documents);
    composer.set((current) => (current === "" ? kept.input : current));
    attachment.setStaged((current) => current ?? kept.staged);
    if (models.some((m) => m.code === kept.model && (m.plan !== "Pro" || plan === "Pro"))) setModel(kept.model);
  };
  const offer = useKeptConversation({
    loading,
    signedIn,
    current: { tree: chat.tree, documents: documents.documents, staged: attachment.staged, model },
    composer,
    restore,
  });
  const keep = () => {
    if (!offer) return;
    const kept = offer.keep();
    restore(kept);
    if (!saved.saveHistory || !saved.vaultKey) {
      toast("Kept on screen. Turn on Save history to save it with the next answer.");
      return;
    }
    saved.save({ chatId: null, tree: kept.tree, userNodeId: null, document: null, documents: kept.documents }).then(
      (id) => {
        chat.load(kept.tree, id);
        toast.success("Kept as a saved chat");
      },
      () => toast.error("Could not save the chat. It stays on screen and is saved with the next answer."),
    );
  };
  return { offer, keep };
}
