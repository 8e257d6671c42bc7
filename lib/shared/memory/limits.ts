/**
 * The limits of memory (docs/issues.md #41), dependency-free so the settings screen, the chat and the model
 * prompt import them without zod.
 */

/** Most memories one user keeps. */
export const MAX_MEMORIES = 100;
/** Characters of one memory (a short fact). */
export const MEMORY_MAX_CHARS = 500;
/** Estimated tokens of memories sent with one turn (newest first; older ones left out beyond it). */
export const MEMORY_PROMPT_BUDGET_TOKENS = 1500;
