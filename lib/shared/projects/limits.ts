// Dependency-free, so the chat screen and the model prompt import them without zod.

export const MAX_PROJECTS = 100;
export const PROJECT_NAME_MAX_CHARS = 100;
export const PROJECT_INSTRUCTIONS_MAX_CHARS = 4000;
