/**
 * Dictation's shared sentences (docs/issues.md #52), without zod, so the composer's first load stays lean.
 */

/** The 429 of a caller whose day's dictation seconds are used up (the server's sentence; the browser matches it to say so on the button). */
export const STT_QUOTA_MESSAGE = "You've used today's dictation time. Type your message instead, or dictate again tomorrow.";
