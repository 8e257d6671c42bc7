// What the chat page does with a failed send (docs/product.md §8): 429/402 the limit message or /signup, another 4xx
// the server's sentence, anything else the spec's usage-limit message.
export type SendErrorOutcome =
  | { kind: "redirect"; href: string }
  | { kind: "message"; text: string; link: { href: string; label: string } | null };

const DAILY_LIMIT_MESSAGE = "You've reached the daily free limit. Please Upgrade to continue.";
export const USAGE_LIMIT_MESSAGE = "You've reached your usage limit. Upgrade to get priority access.";

export function sendErrorOutcome(status: number, serverText: string, signedIn: boolean): SendErrorOutcome {
  if (status === 429 || status === 402) {
    return signedIn
      ? { kind: "message", text: DAILY_LIMIT_MESSAGE, link: { href: "/pricing", label: "Upgrade" } }
      : { kind: "redirect", href: "/signup?reason=limit" };
  }
  if (status >= 400 && status < 500 && status !== 408) return { kind: "message", text: serverText, link: null };
  return { kind: "message", text: USAGE_LIMIT_MESSAGE, link: { href: "/pricing", label: "Upgrade" } };
}

export function failureDetail(status: number, serverText: string): string {
  return `${whatFailed(status, serverText)} ${NOT_A_LIMIT}`;
}

// Said beside the spec's usage-limit text, so nobody upgrades or waits a day because a model service failed.
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
