"use client";

import dynamic from "next/dynamic";
import { useOpenedOnce } from "@/components/ui/use-opened-once";
import { toast } from "@/components/ui/toaster";
import { ChatErrorNotice } from "./chat-error";
import { ChatHeader } from "./chat-header";
import { ChatProvider, useChat, type ChatAppProps } from "./chat-provider";
import { ChatSidebar } from "./chat-sidebar";
import { Composer } from "./composer";
import { useComposerText } from "./composer-text";
import { WebSearchToggle } from "./web-search-toggle";
import { RunCodeToggle } from "./run-code-toggle";
import { IntegrityNotice } from "./integrity-notice";
import { MessageList } from "./message-list";
import type { ChatParts } from "./parts";
import { shareSnapshotOf } from "./share-snapshot";
import { TemporaryChatBanner } from "./temporary-chat";

// Dialogs and late notices are fetched when first shown, not with the page (docs/issues.md #42).
const ShortcutKeys = dynamic(() => import("./shortcut-keys").then((m) => m.ShortcutKeys), { ssr: false });
const ShortcutsDialog = dynamic(() => import("./shortcuts-dialog").then((m) => m.ShortcutsDialog), { ssr: false });
const MemorySuggestion = dynamic(() => import("./memory-suggestion").then((m) => m.MemorySuggestion), { ssr: false });
const KeptOfferNotice = dynamic(() => import("./kept-offer").then((m) => m.KeptOfferNotice), { ssr: false });
// The message list stays in the first load: loaded on demand it made opening a long chat slower.

/** The chat (docs/product.md §2, §4); its state and actions are in ./chat-provider.tsx, `parts` in ./parts.ts. */
export function ChatApp({ parts, ...props }: ChatAppProps & { parts: ChatParts }) {
  return (
    <ChatProvider {...props}>
      <div data-fit-viewport className="relative flex min-h-96 flex-1 bg-white">
        <ChatSidebar parts={parts} />
        <div className="flex min-w-0 flex-1 flex-col">
          <ChatHeader />
          <ChatBody />
        </div>
        <ChatDialogs parts={parts} />
      </div>
    </ChatProvider>
  );
}

function ChatBody() {
  const { title, temporary, empty, openProject, chat, shown, attachment, open, leftOut, retry, kept, saved, memory } = useChat();
  return (
    <>
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
          stagedName={attachment.staged?.name ?? attachment.reading}
          stagedReading={attachment.reading !== null}
          stagedThumbnail={attachment.staged?.image?.url}
          onRemoveStaged={attachment.remove}
          streamingText={chat.streamingText}
          searching={chat.searching}
          deviceTool={chat.deviceTool}
          busy={chat.busy}
          onEdit={chat.edit}
          onRegenerate={chat.regenerate}
          onStep={open.stepVersion}
        />
      )}

      {leftOut && !empty && (
        <p role="status" data-testid="context-notice" className="mx-auto mb-2 w-full max-w-3xl px-4 text-center text-xs text-ink-600 sm:px-6">
          {leftOut}
        </p>
      )}

      {chat.suggestion && !chat.busy && !temporary && (
        <MemorySuggestion key={chat.suggestion.messageId} text={chat.suggestion.text} onSave={memory.add} onDismiss={chat.dismissSuggestion} />
      )}
      {chat.error && <ChatErrorNotice error={chat.error} onRetry={retry} />}
      {kept.offer && (
        <KeptOfferNotice messages={kept.offer.messages} saving={saved.saveHistory && saved.vaultKey !== null} onKeep={kept.keep} onDiscard={kept.offer.discard} />
      )}
      <IntegrityNotice text={open.chatIntegrity ?? saved.historyIntegrity} />

      <ChatComposer />
      <p className="px-4 pb-3 text-center text-xs text-ink-500">Hush may produce mistakes. Please verify information.</p>
    </>
  );
}

/** The only component that reads the typed text, so typing re-renders it alone. */
function ChatComposer() {
  const { composer, chat, send, pickFile, models, model } = useChat();
  const text = useComposerText(composer);
  const chosen = models.find((m) => m.code === model);
  const last = chat.shown.at(-1);
  const latestAnswer = last?.message.role === "assistant" ? { id: last.id, text: last.message.content } : null;
  return (
    <Composer
      value={text}
      onChange={composer.set}
      onSend={() => void send()}
      onStop={chat.stop}
      onPickFile={pickFile}
      busy={chat.busy}
      readsImages={chosen?.vision ?? false}
      tools={
        <>
          <WebSearchToggle state={chat.webSearch} busy={chat.busy} />
          <RunCodeToggle state={chat.runCode} busy={chat.busy} />
        </>
      }
      model={chosen}
      latestAnswer={latestAnswer}
    />
  );
}

function ChatDialogs({ parts: { ShareDialog, MoveChatDialog } }: { parts: ChatParts }) {
  const { shareOpen, setShareOpen, moving, setMoving, chat, saved, scope, openProjectId, shortcuts } = useChat();
  const helpShown = useOpenedOnce(shortcuts.helpOpen);
  const moveShown = useOpenedOnce(moving);
  const moveTo = (projectId: string | null) => {
    const id = chat.chatId;
    if (!id) return;
    const name = scope.projects.projects.find((p) => p.id === projectId)?.name;
    scope.projects.moveChat(id, projectId).then(
      () => toast.success(name ? `Moved to “${name}”` : "Removed from the project"),
      () => toast.error("Could not move the chat. Check your connection and try again."),
    );
  };
  return (
    <>
      {shareOpen && <ShareDialog open={shareOpen} onClose={() => setShareOpen(false)} snapshot={() => shareSnapshotOf(chat, saved.history.chats)} />}
      {moveShown && <MoveChatDialog open={moving} projects={scope.projects.projects} current={openProjectId} onClose={() => setMoving(false)} onMove={moveTo} />}
      <ShortcutKeys shortcuts={shortcuts} />
      {helpShown && <ShortcutsDialog open={shortcuts.helpOpen} onClose={() => shortcuts.setHelpOpen(false)} />}
    </>
  );
}
