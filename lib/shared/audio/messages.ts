// Without zod, so the composer's first load stays lean.

/** The 429 of a caller whose day's dictation seconds are used up; the browser matches it. */
export const STT_QUOTA_MESSAGE = "You've used today's dictation time. Type your message instead, or dictate again tomorrow.";
