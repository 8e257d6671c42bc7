"use client";

import { apiFetch, serverMessage } from "@/lib/browser/api/client";
import { isAppError } from "@/lib/shared/errors";
import { cleanProviderMessage } from "./errors";

// The sign-in calls of /signup and /appsignup (docs/product.md §4, §7).

/** The local-storage key of the address during e-mail link sign-in (docs/product.md §3). */
const EMAIL_FOR_SIGN_IN_KEY = "emailForSignIn";

/** Where every web sign-in lands. */
export const SIGNUP_COMPLETE_PATH = "/signup?complete=1";
/** Where a desktop sign-in lands: /appsignup hands the ID token to the app's deep link. */
export const APP_HANDOFF_PATH = "/appsignup?handoff=1";

const NETWORK_ERROR = "Could not reach Hush. Check your connection and try again.";

export function getStoredEmail(): string | null {
  try {
    return window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    return null;
  }
}

export function storeEmail(email: string): void {
  try {
    window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, email);
  } catch {
    // Private mode without storage: the link page asks for the address instead.
  }
}

export function clearStoredEmail(): void {
  try {
    window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    // nothing stored
  }
}

/** The error to show: `offline` when unreachable, else the server's `{ error }`, else `fallback`. */
function shown(error: unknown, fallback: string, offline = NETWORK_ERROR): Error {
  if (isAppError(error, "offline")) return new Error(offline);
  const message = serverMessage(error);
  return new Error(message?.trim() ? cleanProviderMessage(message) : fallback);
}

/** next-auth's CSRF token (GET /api/auth/csrf). @throws Error NETWORK_ERROR */
export async function csrfToken(): Promise<string> {
  try {
    return (await apiFetch("authCsrf")).csrfToken;
  } catch {
    throw new Error(NETWORK_ERROR);
  }
}

/**
 * Ask for a sign-in link to `email`; resolves to the link itself in development without a mail server, else null.
 * @throws Error whose message is ready to show.
 */
export async function requestEmailLink(email: string): Promise<string | null> {
  const body = { email, csrfToken: await csrfToken(), callbackUrl: new URL(SIGNUP_COMPLETE_PATH, window.location.origin).toString(), json: "true" as const };
  try {
    return (await apiFetch("authSignInEmail", { body })).dev_sign_in_link ?? null;
  } catch (error) {
    throw shown(error, "The sign-in e-mail could not be sent. Please try again.");
  }
}

/** Complete an e-mail link sign-in: a form POST navigation, so the session cookie comes with the redirect. */
export function submitEmailLink(token: string, email: string): void {
  const form = document.createElement("form");
  form.method = "POST";
  form.action = `/api/auth/callback/email?${new URLSearchParams({ token, email })}`;
  form.hidden = true;
  const callback = document.createElement("input");
  callback.type = "hidden";
  callback.name = "callbackUrl";
  callback.value = new URL(SIGNUP_COMPLETE_PATH, window.location.origin).toString();
  form.append(callback);
  document.body.append(form);
  form.submit();
}

/**
 * POST /api/create_account (docs/product.md §7). @returns whether the account is flagged deleted.
 * @throws Error with the response's `error`, else "Failed to create account" (docs/product.md §8).
 */
export async function createAccount(): Promise<{ accountDeleted: boolean }> {
  try {
    const data = await apiFetch("createAccount", { body: {} });
    return { accountDeleted: data.account_deleted };
  } catch (error) {
    throw shown(error, "Failed to create account", "Failed to create account");
  }
}

/** /appsignup?idToken=…: start a session with a Google ID token. @throws Error ready to show. */
export async function signInWithIdToken(idToken: string): Promise<void> {
  try {
    await apiFetch("authIdToken", { body: { idToken } });
  } catch (error) {
    throw shown(error, "Sign-in failed. Please try again.");
  }
}
