"use client";

import dynamic from "next/dynamic";
import { ChatApp } from "@/components/chat/chat-app";
import type { ChatAppProps } from "@/components/chat/chat-provider";
import type { ChatParts } from "@/components/chat/parts";
import { ProjectList } from "@/components/projects/project-list";

// Dialogs, and what only a signed-in user with a vault sees, are fetched when first shown, not with the page.
const parts: ChatParts = {
  ShareDialog: dynamic(() => import("@/components/share/share-dialog").then((m) => m.ShareDialog), { ssr: false }),
  MoveChatDialog: dynamic(() => import("@/components/projects/move-chat-dialog").then((m) => m.MoveChatDialog), { ssr: false }),
  ProjectList,
  UnlockPanel: dynamic(() => import("@/components/vault/unlock-panel").then((m) => m.UnlockPanel), { ssr: false }),
  VaultSetupDialog: dynamic(() => import("@/components/vault/setup-dialog").then((m) => m.VaultSetupDialog), { ssr: false }),
};

/** /chat's client side: the chat (components/chat) with the share, project and vault pieces it shows. */
export function ChatScreen(props: ChatAppProps) {
  return <ChatApp {...props} parts={parts} />;
}
