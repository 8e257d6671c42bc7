"use client";

import { useChat } from "./chat-provider";
import type { ChatParts } from "./parts";
import { Sidebar } from "./sidebar";

/** The history sidebar (./sidebar.tsx) bound to the chat: the listed chats, search, Save history, Lock and the projects. */
export function ChatSidebar({ parts }: { parts: ChatParts }) {
  const { ProjectList } = parts;
  const { open, saved, account, signedIn, chat, scope, searchOpen, openSearch, lock } = useChat();
  const { history, search } = saved;
  return (
    <Sidebar
      open={open.sidebarOpen}
      onClose={open.toggleSidebar}
      signedIn={signedIn}
      chats={scope.listed}
      loading={history.loading || account.loading}
      hasMore={history.hasMore}
      onLoadMore={history.loadMore}
      activeChatId={chat.chatId}
      onPick={open.pickChat}
      onNew={open.newChat}
      onDelete={open.deleteChat}
      onRename={open.renameChat}
      searchOpen={searchOpen}
      onSearchOpenChange={openSearch}
      searchState={search.state}
      search={search.search}
      hiddenChats={history.pendingIds}
      saveHistory={saved.saveHistory}
      onSaveHistoryChange={saved.setSaveHistory}
      vault={saved.vault}
      vaultParts={parts}
      onLock={lock}
      projects={
        saved.vaultKey && (
          <ProjectList
            projects={scope.projects.projects}
            activeProjectId={scope.activeProjectId}
            onSelect={(id) => {
              // Picking a project opens a new chat in it (its chats are listed below).
              open.clearChat();
              scope.setActiveProjectId(id);
            }}
            onCreate={scope.projects.create}
            onUpdate={scope.projects.update}
            onDelete={scope.projects.remove}
            files={scope.files}
          />
        )
      }
    />
  );
}
