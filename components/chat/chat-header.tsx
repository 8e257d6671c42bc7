"use client";

import { useRouter } from "next/navigation";
import { ChatMenu } from "./chat-menu";
import { useChat } from "./chat-provider";
import { ModelPicker } from "./model-picker";
import { TemporaryChatButton } from "./temporary-chat";
import { toast } from "@/components/ui/toaster";

type ExportArgs = Parameters<typeof import("./open-chat-export").exportOpenChat>;

/** The export code is fetched at the first export, not in /chat's first load (docs/issues.md #42). */
async function exportOpenChat(...args: ExportArgs): Promise<void> {
  let exporter: typeof import("./open-chat-export");
  try {
    exporter = await import("./open-chat-export");
  } catch {
    toast.error("Could not export: Hush could not be reached. Try again.");
    return;
  }
  exporter.exportOpenChat(...args);
}

/** The chat header: model picker, the open chat's title (the page's h1), its project and menu. */
export function ChatHeader() {
  const router = useRouter();
  const { open, chat, models, model, setModel, plan, title, providerNotice, openProject, signedIn, temporary, setTemporary, shown, setShareOpen, setMoving, scope, saved } =
    useChat();
  // On a narrow column the pills take a second row, so the title and the chat's actions stay in view.
  const pills = providerNotice !== null || openProject !== null;
  return (
    // z-20: the container query makes the header a stacking context; its menus stay above the messages.
    <div className="@container relative z-20 border-b border-ink-100">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 px-2 py-2 sm:px-4 @4xl:flex-nowrap">
        <div className="flex min-w-0 flex-1 items-center gap-1 sm:flex-initial @4xl:shrink-0">
          <HeaderIconButton label="Toggle chat history" title="Chat history" onClick={open.toggleSidebar} sidebarOpen={open.sidebarOpen} path="M4 5h16v14H4zM9 5v14" />
          <HeaderIconButton label="New chat" title="New chat" onClick={open.newChat} sidebarOpen={open.sidebarOpen} path="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
          <ModelPicker models={models} value={model} onChange={setModel} onNeedsPro={() => router.push("/pricing")} plan={plan} />
        </div>
        {/* Every page has one h1: the open chat's title, or the empty state's heading. */}
        {title !== null && (
          <h1 data-testid="chat-title" title={title} className="sr-only text-sm font-semibold text-ink-900 sm:not-sr-only sm:min-w-24 sm:flex-1 sm:truncate @4xl:flex-[1_1_16rem] sm:text-center">
            {title}
          </h1>
        )}
        {title === null && <span aria-hidden="true" className="hidden sm:block sm:flex-1" />}
        {pills && (
          <div className="order-last flex min-w-0 basis-full items-center gap-1 @4xl:order-none @4xl:max-w-[40%] @4xl:basis-auto">
            {providerNotice && (
              <span className="min-w-0 truncate rounded-full bg-amber-50 px-3 py-1 text-xs font-medium text-amber-800 ring-1 ring-amber-200" title={providerNotice}>
                {providerNotice}
              </span>
            )}
            {openProject && (
              <span data-testid="chat-project" className="inline-flex min-w-0 items-center gap-1 rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700" title={`Project: ${openProject.name}`}>
                <span className="sr-only">Project: </span>
                <span className="truncate">{openProject.name}</span>
              </span>
            )}
          </div>
        )}
        <div className="flex shrink-0 items-center gap-1">
          {signedIn && (
            <TemporaryChatButton
              on={temporary}
              onToggle={() => {
                open.clearChat();
                setTemporary(!temporary);
              }}
            />
          )}
          {shown.length > 0 && (
            <ChatMenu
              onExport={(kind) => void exportOpenChat(chat, saved.history.chats, kind)}
              onShare={chat.chatId && !chat.busy && !temporary ? () => setShareOpen(true) : undefined}
              extraItems={chat.chatId && !temporary && scope.projects.projects.length > 0 ? [{ label: "Move to project…", onSelect: () => setMoving(true) }] : []}
            />
          )}
        </div>
      </div>
    </div>
  );
}

/** Stands in for the sidebar's own button while the sidebar is hidden. */
function HeaderIconButton(props: { label: string; title: string; onClick: () => void; sidebarOpen: boolean | null; path: string }) {
  const shown = props.sidebarOpen === null ? "inline-flex md:hidden" : props.sidebarOpen ? "hidden" : "inline-flex";
  return (
    <button
      type="button"
      onClick={props.onClick}
      aria-label={props.label}
      title={props.title}
      className={`h-10 w-10 items-center justify-center rounded-lg sm:h-9 sm:w-9 text-ink-600 hover:bg-ink-100 hover:text-ink-900 ${shown}`}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        <path d={props.path} />
      </svg>
    </button>
  );
}
