/** Longest display name a user may give a chat, in characters (rename). Shared by the field and the route's size limit. */
export const CHAT_TITLE_MAX_CHARS = 200;
