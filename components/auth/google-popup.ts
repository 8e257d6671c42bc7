"use client";

import { signIn } from "next-auth/react";
import { apiFetch } from "@/lib/browser/api/client";
import { csrfToken } from "./client";

/**
 * Google sign-in in a popup (docs/product.md §4 "Google sign-in: popup sign-in, then account creation, then
 * /chat"; §5 "/appsignup, after Google popup sign-in …"). The page the user is on stays loaded (and
 * whatever they typed stays in place); the popup runs next-auth's ordinary OAuth flow on our own
 * origin and, once it lands back on /signup or /appsignup, reports the outcome over a same-origin
 * BroadcastChannel and closes itself once the opener has acknowledged the report. Where no popup can be
 * opened (blocked) or the popup is closed before it reports, the page falls back to the full-page
 * redirect.
 *
 * Why the acknowledgement: the opener learns that the popup closed by polling `closed`, and a channel's
 * message may arrive after that. A popup that closed right after posting was, on a busy machine, taken
 * for one the user had closed, and the page went the full-page way (reloaded) although sign-in had
 * succeeded (seen twice in CI, e2e/google-popup.spec.ts).
 */

/** The popup's window name and the sessionStorage key that marks a page as running inside it. */
const POPUP_NAME = "hush-google-signin";
const POPUP_FLAG = "hush.googlePopup";
const CHANNEL = "hush-google-signin";
/** How often the opener checks whether the popup was closed (ms). */
const CLOSED_POLL_MS = 400;
/** The longest the popup waits for the opener's acknowledgement before closing anyway (ms): an opener gone. */
const ACK_TIMEOUT_MS = 5_000;

const NETWORK_ERROR = "Could not reach Hush. Check your connection and try again.";

/** What the popup reports: signed in, or a sign-in error code (components/auth/errors.ts). */
export type PopupResult = { ok: true } | { ok: false; error: string };
/** The opener's answer to a report: the popup may close. */
type PopupAck = { ack: true };

/** How the sign-in ended from the opener's side. */
export type GoogleSignInOutcome =
  /** The popup signed this browser in; the caller finishes (account creation, /chat, deep link). */
  | { kind: "signed-in" }
  /** The popup reported an error code. */
  | { kind: "error"; code: string }
  /** A full-page redirect to the provider is under way: nothing more to do on this page. */
  | { kind: "redirected" };

/** Centered popup features, sized like Google's own account chooser. */
function popupFeatures(): string {
  const width = 500;
  const height = 640;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/** The provider's authorization URL from next-auth (the same request `signIn()` makes, without navigating). */
async function providerUrl(callbackPath: string): Promise<string> {
  const body = { csrfToken: await csrfToken(), callbackUrl: new URL(callbackPath, window.location.origin).toString(), json: "true" as const };
  try {
    return (await apiFetch("authSignInGoogle", { body })).url;
  } catch {
    throw new Error(NETWORK_ERROR);
  }
}

/** The full-page redirect (next-auth's own `signIn`), used when no popup can do the job. */
async function fullPageSignIn(callbackPath: string): Promise<GoogleSignInOutcome> {
  try {
    await signIn("google", { callbackUrl: callbackPath });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  return { kind: "redirected" };
}

/**
 * Start Google sign-in landing on `callbackPath`. Must be called synchronously from a click (before
 * any `await`), or the browser blocks the popup. Resolves when the popup reported, or once a full-page
 * redirect has started (popup blocked, or closed before it reported).
 * @throws Error with a message ready to show when our server cannot be reached.
 */
export function startGooglePopupSignIn(callbackPath: string): Promise<GoogleSignInOutcome> {
  let popup: Window | null = null;
  try {
    popup = window.open("", POPUP_NAME, popupFeatures());
  } catch {
    popup = null;
  }
  if (!popup) return fullPageSignIn(callbackPath);
  try {
    // Marks the pages the popup will load (same origin, same tab) as "report and close".
    popup.sessionStorage.setItem(POPUP_FLAG, "1");
    popup.document.title = "Continue with Google";
  } catch {
    // A popup we cannot script is no use: close it and go the full-page way.
    popup.close();
    return fullPageSignIn(callbackPath);
  }
  const win = popup;

  return new Promise<GoogleSignInOutcome>((resolve, reject) => {
    const channel = new BroadcastChannel(CHANNEL);
    let settled = false;
    const done = (fn: () => void) => {
      if (settled) return;
      settled = true;
      window.clearInterval(timer);
      channel.close();
      fn();
    };
    channel.onmessage = (event: MessageEvent<PopupResult | PopupAck>) => {
      const result = event.data;
      if (!result || typeof result !== "object" || "ack" in result) return;
      // Posted before the channel closes, so it is still delivered.
      channel.postMessage({ ack: true } satisfies PopupAck);
      done(() => resolve(result.ok ? { kind: "signed-in" } : { kind: "error", code: String(result.error) }));
    };
    const timer = window.setInterval(() => {
      if (win.closed) done(() => void fullPageSignIn(callbackPath).then(resolve, reject));
    }, CLOSED_POLL_MS);
    providerUrl(callbackPath).then(
      (url) => {
        if (!win.closed) win.location.href = url;
      },
      (e: unknown) => {
        win.close();
        done(() => reject(e instanceof Error ? e : new Error(NETWORK_ERROR)));
      },
    );
  });
}

/** Whether this page is running inside the sign-in popup (set by the opener, see above). */
export function isGooglePopup(): boolean {
  try {
    return window.sessionStorage.getItem(POPUP_FLAG) === "1";
  } catch {
    return false;
  }
}

/**
 * In the popup, once back on our origin: tell the opener how sign-in ended, and close once it has
 * acknowledged (or after ACK_TIMEOUT_MS without an answer). If the window cannot close itself, the
 * caller's page shows what to do.
 */
export function reportToOpener(result: PopupResult): void {
  try {
    window.sessionStorage.removeItem(POPUP_FLAG);
  } catch {
    // nothing stored
  }
  const channel = new BroadcastChannel(CHANNEL);
  const close = () => {
    window.clearTimeout(timer);
    channel.close();
    window.close();
  };
  const timer = window.setTimeout(close, ACK_TIMEOUT_MS);
  channel.onmessage = (event: MessageEvent<PopupResult | PopupAck>) => {
    if (event.data && typeof event.data === "object" && "ack" in event.data) close();
  };
  channel.postMessage(result);
}
