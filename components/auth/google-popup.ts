"use client";

import { signIn } from "next-auth/react";
import { apiFetch } from "@/lib/browser/api/client";
import { csrfToken } from "./client";

// Google sign-in in a popup (docs/product.md §4, §5): the page stays loaded; the popup reports over a
// BroadcastChannel and closes once acknowledged, since the opener polls `closed` and a message may arrive after
// it. Blocked or closed early, the page falls back to the full-page redirect.

/** The popup's window name and the sessionStorage key that marks a page as running inside it. */
const POPUP_NAME = "hush-google-signin";
const POPUP_FLAG = "hush.googlePopup";
const CHANNEL = "hush-google-signin";
const CLOSED_POLL_MS = 400;
/** The longest the popup waits for the opener's acknowledgement before closing anyway, ms. */
const ACK_TIMEOUT_MS = 5_000;

const NETWORK_ERROR = "Could not reach Hush. Check your connection and try again.";

/** What the popup reports: signed in, or a sign-in error code (components/auth/errors.ts). */
export type PopupResult = { ok: true } | { ok: false; error: string };
type PopupAck = { ack: true };

/** How the sign-in ended from the opener's side ("redirected": a full-page redirect is under way). */
export type GoogleSignInOutcome =
  | { kind: "signed-in" }
  | { kind: "error"; code: string }
  | { kind: "redirected" };

/** Centered, sized like Google's own account chooser. */
function popupFeatures(): string {
  const width = 500;
  const height = 640;
  const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}

/** The provider's authorization URL (the request `signIn()` makes, without navigating). */
async function providerUrl(callbackPath: string): Promise<string> {
  const body = { csrfToken: await csrfToken(), callbackUrl: new URL(callbackPath, window.location.origin).toString(), json: "true" as const };
  try {
    return (await apiFetch("authSignInGoogle", { body })).url;
  } catch {
    throw new Error(NETWORK_ERROR);
  }
}

async function fullPageSignIn(callbackPath: string): Promise<GoogleSignInOutcome> {
  try {
    await signIn("google", { callbackUrl: callbackPath });
  } catch {
    throw new Error(NETWORK_ERROR);
  }
  return { kind: "redirected" };
}

/**
 * Start Google sign-in landing on `callbackPath`; call it synchronously from a click, or the popup is blocked.
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
    popup.sessionStorage.setItem(POPUP_FLAG, "1");
    popup.document.title = "Continue with Google";
  } catch {
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

/** Whether this page is running inside the sign-in popup. */
export function isGooglePopup(): boolean {
  try {
    return window.sessionStorage.getItem(POPUP_FLAG) === "1";
  } catch {
    return false;
  }
}

/** In the popup: tell the opener how sign-in ended, and close once acknowledged (or after ACK_TIMEOUT_MS). */
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
