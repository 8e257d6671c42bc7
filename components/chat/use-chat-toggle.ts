"use client";

import { useState } from "react";

const NEW_CHAT = "";

/** A composer toggle per chat for this page's life, off by default; `adopt` carries a new chat's choice to its id. */
export function useChatToggle(chatId: string | null) {
  const [byChat, setByChat] = useState<Record<string, boolean>>({});
  const key = chatId ?? NEW_CHAT;
  return {
    on: Boolean(byChat[key]),
    toggle: () => setByChat((m) => ({ ...m, [key]: !m[key] })),
    adopt: (id: string) => setByChat((m) => ({ ...m, [id]: Boolean(m[NEW_CHAT]), [NEW_CHAT]: false })),
    reset: () => setByChat((m) => ({ ...m, [NEW_CHAT]: false })),
  };
}
