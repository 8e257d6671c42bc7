"use client";

import { useState } from "react";

/** The key of a chat that has no id yet (a new chat, or a visitor's). */
const NEW_CHAT = "";

/**
 * A composer toggle remembered per chat for this page's life ("Search the web", "Run code"): off by default; a new
 * chat's choice follows it once it is saved (`adopt`), and New chat starts with it off (`reset`). Nothing is stored.
 */
export function useChatToggle(chatId: string | null) {
  const [byChat, setByChat] = useState<Record<string, boolean>>({});
  const key = chatId ?? NEW_CHAT;
  return {
    /** On for the open chat. */
    on: Boolean(byChat[key]),
    toggle: () => setByChat((m) => ({ ...m, [key]: !m[key] })),
    /** A new chat was saved as `id`: it keeps the choice made while it had none. */
    adopt: (id: string) => setByChat((m) => ({ ...m, [id]: Boolean(m[NEW_CHAT]), [NEW_CHAT]: false })),
    /** New chat: the toggle starts off. */
    reset: () => setByChat((m) => ({ ...m, [NEW_CHAT]: false })),
  };
}
