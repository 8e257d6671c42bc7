// Sign-in error texts (docs/product.md §5, §8). Only known codes are shown as they are: a URL must not be able to
// put arbitrary text on the page.

const MESSAGES: Record<string, string> = {
  Verification: "This sign-in link is invalid, has expired or was already used. Enter your e-mail to get a new one.",
  EmailSignin: "The sign-in e-mail could not be sent. Please try again later.",
  OAuthSignin: "Google sign-in could not start. Please try again.",
  OAuthCallback: "Google sign-in did not complete. Please try again.",
  Callback: "Sign-in did not complete. Please try again.",
  OAuthCreateAccount: "Your account could not be created. Please try again.",
  EmailCreateAccount: "Your account could not be created. Please try again.",
  OAuthAccountNotLinked: "This Google account is already linked to another Hush account.",
  AccessDenied: "Sign-in was refused.",
  GoogleEmailNotVerified: "Your Google account's e-mail address is not verified.",
  GoogleUnavailable: "Google sign-in is not available on this server.",
  HandoffExpired: "This sign-in has expired. Please sign in again.",
  SessionRequired: "Please sign in to continue.",
  Configuration: "Sign-in is not set up correctly on this server.",
};

export const DEFAULT_AUTH_ERROR = "Sign-in failed. Please try again.";

/** Unknown codes get a generic message. */
export function authErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return MESSAGES[code] ?? DEFAULT_AUTH_ERROR;
}

/** An error text without its leading "<Provider>:" or "[provider]" prefix, trimmed; empty: the generic message. */
export function cleanProviderMessage(message: string | null | undefined): string {
  let text = (message ?? "").trim();
  for (;;) {
    const next = text.replace(/^(?:\[[^\]\s]{1,30}\]|[A-Za-z][\w.-]{0,30}):\s*/, "");
    if (next === text) break;
    text = next.trim();
  }
  return text || DEFAULT_AUTH_ERROR;
}
