/**
 * The limits of project knowledge (docs/issues.md #41, "Project knowledge"), dependency-free so the pricing page,
 * the project's Files dialog, the browser's retrieval and the server share them.
 */

const MiB = 1024 * 1024;

/** Bytes of sealed files one project may hold, per plan (stated on /pricing and in the project's Files dialog). */
export const PROJECT_FILES_LIMIT_BYTES = { Free: 5 * MiB, Pro: 50 * MiB } as const;
/** Files in one project. */
export const MAX_FILES_PER_PROJECT = 50;
/** Characters of text kept from one project file (a 400 KB text file fits whole). */
export const PROJECT_FILE_MAX_CHARS = 1_000_000;
/** Bytes of one project file as picked, before it is read. */
export const PROJECT_FILE_MAX_BYTES = 10 * MiB;
/** Estimated tokens of passages sent with one turn in a project (about 24 KB of text). */
export const KNOWLEDGE_PROMPT_BUDGET_TOKENS = 6000;
/** Most passages sent with one turn. */
export const KNOWLEDGE_MAX_PASSAGES = 8;

/** "5 MB" for a byte count of whole MiB, as the pricing page and the dialog say it. */
export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}
