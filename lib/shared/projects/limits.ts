/**
 * The limits of projects, dependency-free so the chat screen and the model prompt
 * (lib/shared/llm/prompt.ts, also in the browser's confidential client) import them without zod
 * (docs/issues.md #12 budgets); lib/shared/projects/schemas.ts re-exports them for the API.
 */

/** Most projects one user can have (409 "conflict:project_limit" beyond). */
export const MAX_PROJECTS = 100;
/** Characters of a project's name (the browser refuses more; the sealed bucket bounds it on the server). */
export const PROJECT_NAME_MAX_CHARS = 100;
/** Characters of a project's instructions; the model prompt also cuts any system text at this length. */
export const PROJECT_INSTRUCTIONS_MAX_CHARS = 4000;
