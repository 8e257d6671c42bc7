"use client";

import { cleanProviderMessage } from "./errors";

/**
 * The sign-in calls of /signup and /appsignup (spec §4, §7). All go to our own origin.
 */

/** Spec §3 "Local value emailForSignIn: kept in local storage during e-mail link sign-in." */
export const EMAIL_FOR_SIGN_IN_KEY = "emailForSignIn";

/** Where every web sign-in lands: /signup finishes it (create_account, then /chat). */
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
    // Private mode without storage: the link page will ask for the address instead.
  }
}

export function clearStoredEmail(): void {
  try {
    window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  } catch {
    // nothing stored
  }
}

async function readError(res: Response, fallback: string): Promise<string> {
  const data = (await res.json().catch(() => null)) as { error?: unknown } | null;
  return typeof data?.error === "string" && data.error.trim() ? cleanProviderMessage(data.error) : fallback;
}

async function csrfToken(): Promise<string> {
  const res = await fetch("/api/auth/csrf", { credentials: "same-origin", cache: "no-store" });
  const data = (await res.json()) as { csrfToken?: string };
  if (!data.csrfToken) throw new Error(NETWORK_ERROR);
  return data.csrfToken;
}

/**
 * Ask for a sign-in link to `email`. Resolves when the e-mail is on its way.
 * @throws Error whose message is ready to show (rate limit, invalid address, e-mail off...).
 */
export async function requestEmailLink(email: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch("/api/auth/signin/email", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        email,
        csrfToken: await csrfToken(),
        callbackUrl: new URL(SIGNUP_COMPLETE_PATH, window.location.origin).toString(),
        json: "true",
      }),
    });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  if (!res.ok) throw new Error(await readError(res, "The sign-in e-mail could not be sent. Please try again."));
}

/**
 * Complete an e-mail link sign-in: a same-origin form POST (a navigation, so the session cookie
 * comes with the redirect to /signup?complete=1, or to /signup?error=Verification).
 */
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
 * POST /api/create_account (spec §7). @returns whether the account is flagged deleted.
 * @throws Error with the response's `error`, else "Failed to create account" (spec §8).
 */
export async function createAccount(): Promise<{ accountDeleted: boolean }> {
  let res: Response;
  try {
    res = await fetch("/api/create_account", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
  } catch {
    throw new Error("Failed to create account");
  }
  if (!res.ok) throw new Error(await readError(res, "Failed to create account"));
  const data = (await res.json().catch(() => ({}))) as { account_deleted?: boolean };
  return { accountDeleted: data.account_deleted === true };
}

/** /appsignup?idToken=…: start a session with a Google ID token. @throws Error ready to show. */
export async function signInWithIdToken(idToken: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch("/api/auth/id-token", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ idToken }),
    });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  if (!res.ok) throw new Error(await readError(res, "Sign-in failed. Please try again."));
}
