/**
 * What the chat page does with a failed send (docs/product.md §8):
 * - 429 or 402: a signed-in user sees the daily-limit message with a /pricing link; a visitor goes to /signup.
 * - a request the server refused as invalid (other 4xx): the server's own sentence (e.g. an encrypted PDF),
 *   so the user can fix it;
 * - anything else (5xx, network, cut stream): the spec's usage-limit message with a /pricing link.
 */
export type SendErrorOutcome =
  | { kind: "redirect"; href: string }
  | { kind: "message"; text: string; link: { href: string; label: string } | null };

export const DAILY_LIMIT_MESSAGE = "You've reached the daily free limit. Please Upgrade to continue.";
export const USAGE_LIMIT_MESSAGE = "You've reached your usage limit. Upgrade to get priority access.";

/** Map a failed send's HTTP status (0 = network) and server text to what the page shows. */
export function sendErrorOutcome(status: number, serverText: string, signedIn: boolean): SendErrorOutcome {
  if (status === 429 || status === 402) {
    return signedIn
      ? { kind: "message", text: DAILY_LIMIT_MESSAGE, link: { href: "/pricing", label: "Upgrade" } }
      : { kind: "redirect", href: "/signup?reason=limit" };
  }
  if (status >= 400 && status < 500 && status !== 408) return { kind: "message", text: serverText, link: null };
  return { kind: "message", text: USAGE_LIMIT_MESSAGE, link: { href: "/pricing", label: "Upgrade" } };
}

/**
 * One plain line saying what happened, shown under the spec's "any other failure" text (docs/issues.md #9 "Errors
 * the user can act on"); the docs/product.md §8 text itself stays as it is. Reads the failed send's HTTP status
 * (0 = network, as the API client's AppError carries it) and the server's sentence (lib/server/chat/respond.ts, lib/server/chat/turn.ts).
 */
export function failureDetail(status: number, serverText: string): string {
  return `${whatFailed(status, serverText)} ${NOT_A_LIMIT}`;
}

/**
 * The spec's text speaks of a usage limit, but these failures are not one; said beside it so
 * nobody upgrades or waits a day because a model service failed.
 */
export const NOT_A_LIMIT = "This is not a limit on your account.";

function whatFailed(status: number, serverText: string): string {
  if (/\b(pdf|document)\b/i.test(serverText)) return "The document could not be read.";
  if (status === 0) {
    return /lost|stream/i.test(serverText)
      ? "The connection dropped while the answer was arriving."
      : "The connection dropped: Hush could not be reached.";
  }
  if (/cut off|ended before/i.test(serverText)) return "The connection to the model service dropped before the answer finished.";
  if (status === 504 || status === 408) return "The model did not answer in time.";
  return "The model did not answer: the model service failed.";
}
