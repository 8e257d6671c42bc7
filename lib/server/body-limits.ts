// Next silently cuts a body past its own limit, so next.config.ts lets this ceiling through and each route answers 413.

/** Bytes; above every route's body limit. */
export const BODY_CEILING_BYTES = 64 * 1024 * 1024;
