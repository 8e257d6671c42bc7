/** The chat's keyboard shortcuts, with ChatGPT's keys so habits carry over; matched by physical key (event.code). */
export const SHORTCUTS = [
  { id: "newChat", keys: "mod+shift+o", label: "New chat" },
  { id: "focusInput", keys: "shift+escape", label: "Focus the message input" },
  { id: "stop", keys: "escape", label: "Stop generating (while an answer streams)" },
  { id: "toggleSidebar", keys: "mod+shift+s", label: "Show or hide the chat history" },
  { id: "search", keys: "mod+k", label: "Search chats" },
  { id: "copyLast", keys: "mod+shift+c", label: "Copy the last answer" },
  { id: "help", keys: "mod+slash", label: "Show keyboard shortcuts" },
] as const;
