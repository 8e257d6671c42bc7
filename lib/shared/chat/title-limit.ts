export const CHAT_TITLE_MAX_CHARS = 200;
