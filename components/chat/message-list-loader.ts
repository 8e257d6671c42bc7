/** The chat's message list as a separate chunk (components/chat/chat-app.tsx): its loader, shared with the preload. */
export const loadMessageList = () => import("./message-list").then((m) => m.MessageList);

/** Start fetching the message list before the first message needs it. */
export function preloadMessageList(): void {
  void loadMessageList().catch(() => undefined);
}
