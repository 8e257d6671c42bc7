export const MAX_MEMORIES = 100;
export const MEMORY_MAX_CHARS = 500;
export const MEMORY_PROMPT_BUDGET_TOKENS = 1500;
