const MiB = 1024 * 1024;

export const PROJECT_FILES_LIMIT_BYTES = { Free: 5 * MiB, Pro: 50 * MiB } as const;
export const MAX_FILES_PER_PROJECT = 50;
export const PROJECT_FILE_MAX_CHARS = 1_000_000;
export const PROJECT_FILE_MAX_BYTES = 10 * MiB;
export const KNOWLEDGE_PROMPT_BUDGET_TOKENS = 6000;
export const KNOWLEDGE_MAX_PASSAGES = 8;

export function formatLimit(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}
