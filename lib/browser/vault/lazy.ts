"use client";

/**
 * The vault's sealing and opening code, fetched at first use rather than with the page: a visitor never
 * needs it, and a signed-in user's first use comes after GET /api/vault and the unlock anyway
 * (docs/issues.md #42: /chat's first load). Each call resolves to the same module; a chunk that cannot
 * be fetched rejects, as a failed request would, and the caller's error path handles it.
 */
export const savedChats = () => import("./saved-chats");
/** ./seal.ts: titles, turns, unlock methods. */
export const sealing = () => import("./seal");
/** ./projects.ts: a project's name and instructions. */
export const projectSealing = () => import("./projects");
/** ./project-files.ts: a project file's passages. */
export const projectFileSealing = () => import("./project-files");
/** ./memory.ts: the memory list. */
export const memorySealing = () => import("./memory");
/** ./crypto.ts alone: a draft's field encryption (lib/browser/chat/drafts.ts). */
export const vaultCrypto = () => import("./crypto");
