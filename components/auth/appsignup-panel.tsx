"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { APP_HANDOFF_PATH, createAccount, signInWithIdToken } from "./client";
import { syncAuthToken } from "@/lib/browser/account/sync";
import { authErrorMessage, cleanProviderMessage } from "./errors";
import { GoogleButton, Spinner } from "./google-button";
import { isGooglePopup, reportToOpener, startGooglePopupSignIn } from "./google-popup";
import { ErrorLine, PopupDoneMessage, TermsNotice } from "./notices";

export interface AppSignupPanelProps {
  idToken: string | null;
  /** After Google sign-in: the desktop app's deep link carrying the ID token. */
  deepLink: string | null;
  initialError: string | null;
  googleEnabled: boolean;
}

/** /appsignup (docs/product.md §2): sign-in for the desktop app, handed to it by deep link; signs in from ?idToken=. */
export function AppSignupPanel({ idToken, deepLink, initialError, googleEnabled }: AppSignupPanelProps) {
  const [error, setError] = useState<string | null>(authErrorMessage(initialError));
  const [busy, setBusy] = useState(false);
  const [signingIn, setSigningIn] = useState(false);
  // ?idToken= waits for "Continue": a crafted link must not sign a browser into someone else's account (login CSRF).
  const [pendingToken, setPendingToken] = useState<string | null>(idToken);
  const [popupDone, setPopupDone] = useState(false);
  const started = useRef(false);

  useLayoutEffect(() => {
    // Before anything else: the token leaves the address bar (and history).
    if (initialError || idToken) window.history.replaceState(null, "", "/appsignup");
  }, [idToken, initialError]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if ((deepLink || initialError) && isGooglePopup()) {
      reportToOpener(deepLink && !initialError ? { ok: true } : { ok: false, error: initialError ?? "Callback" });
      queueMicrotask(() => setPopupDone(true));
      return;
    }
    if (deepLink) {
      // This page has no header to sync the sign-in (docs/product.md §7).
      createAccount()
        .then(() => syncAuthToken(true))
        .catch(() => undefined)
        .finally(() => window.location.assign(deepLink));
    }
  }, [deepLink, initialError]);

  function onContinueWithToken() {
    if (!pendingToken) return;
    const token = pendingToken;
    setPendingToken(null);
    setSigningIn(true);
    signInWithIdToken(token)
      .then(() => createAccount())
      .then(
        () => window.location.replace("/chat"), // a full load: the account context starts over
        (e: unknown) => {
          setError(cleanProviderMessage(e instanceof Error ? e.message : null));
          setSigningIn(false);
        },
      );
  }

  async function onGoogle() {
    if (!googleEnabled) {
      setError(authErrorMessage("GoogleUnavailable"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Synchronous up to window.open: the click's user activation lets the popup through.
      const outcome = await startGooglePopupSignIn(APP_HANDOFF_PATH);
      if (outcome.kind === "signed-in") window.location.assign(APP_HANDOFF_PATH);
      else if (outcome.kind === "error") {
        setError(authErrorMessage(outcome.code));
        setBusy(false);
      }
    } catch (e) {
      setError(cleanProviderMessage(e instanceof Error ? e.message : null));
      setBusy(false);
    }
  }

  if (popupDone) return <Card><PopupDoneMessage /></Card>;
  if (deepLink) return <DeepLinkCard deepLink={deepLink} />;
  if (pendingToken) return <TokenQuestionCard email={claimedEmail(pendingToken)} onContinue={onContinueWithToken} onCancel={() => setPendingToken(null)} />;
  if (signingIn) return <SigningInCard />;

  return (
    <Card>
      <div className="text-center">
        <h1 className="text-2xl font-semibold tracking-tight text-ink-950 sm:text-3xl">Sign In</h1>
        <p className="mt-2 text-ink-600">Continue to the Hush desktop app</p>
      </div>
      <div className="mt-8">
        <GoogleButton onClick={() => void onGoogle()} busy={busy} />
      </div>
      <div className="mt-4">
        <ErrorLine message={error} />
      </div>
      <TermsNotice className="mt-6" />
    </Card>
  );
}

/** Signed in: the desktop app's deep link is being opened (with a button for when it does not open). */
function DeepLinkCard({ deepLink }: { deepLink: string }) {
  return (
    <Card>
      <div className="text-center" aria-live="polite">
        <div className="mx-auto mb-5 flex h-12 w-12 items-center justify-center rounded-full bg-green-50 text-green-600">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        </div>
        <h1 className="text-2xl font-semibold tracking-tight text-ink-950">You&rsquo;re signed in</h1>
        <p className="mt-2 text-ink-600">Opening the Hush app&hellip; You can close this tab once it has opened.</p>
        <a href={deepLink} data-testid="open-desktop-app" className={`${primaryButton} mt-8`}>
          Open the Hush app
        </a>
      </div>
    </Card>
  );
}

/** docs/issues.md #10: ?idToken= signs in only once the user says so (`email`: the address the token claims, if readable). */
function TokenQuestionCard({ email, onContinue, onCancel }: { email: string | null; onContinue: () => void; onCancel: () => void }) {
  return (
    <Card>
      <div className="text-center">
        <h1 className="text-2xl font-semibold tracking-tight text-ink-950 sm:text-3xl">Sign In</h1>
        <p className="mt-3 break-words text-ink-700" data-testid="idtoken-question">
          {email ? (
            <>
              Sign in as <strong className="font-semibold text-ink-950">{email}</strong>?
            </>
          ) : (
            "Sign in with the account from the Hush app?"
          )}
        </p>
        <p className="mt-2 text-sm text-ink-600">Continue only if you opened this link from your own Hush app.</p>
      </div>
      <div className="mt-8 flex flex-col gap-3">
        <button type="button" onClick={onContinue} className={primaryButton} autoFocus>
          Continue
        </button>
        <button
          type="button"
          onClick={onCancel}
          className="inline-flex h-12 w-full items-center justify-center rounded-xl border border-ink-200 px-4 text-base font-semibold text-ink-800 transition-colors hover:bg-ink-50"
        >
          Cancel
        </button>
      </div>
    </Card>
  );
}

function SigningInCard() {
  return (
    <Card>
      <div className="flex flex-col items-center py-6 text-center" aria-live="polite" aria-busy="true">
        <Spinner className="h-8 w-8 text-brand-600" />
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-ink-950">Signing you in…</h1>
        <p className="mt-2 text-ink-600">This only takes a moment.</p>
      </div>
    </Card>
  );
}

/** The e-mail an ID token claims, for the question only (the server verifies it); null when unreadable. */
function claimedEmail(token: string): string | null {
  try {
    const part = token.split(".")[1] ?? "";
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "="));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    const payload = JSON.parse(new TextDecoder().decode(bytes)) as { email?: unknown };
    return typeof payload.email === "string" && payload.email.length <= 254 ? payload.email : null;
  } catch {
    return null;
  }
}

const primaryButton =
  "inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700";

function Card({ children }: { children: React.ReactNode }) {
  return (
    <div className="w-full max-w-sm rounded-3xl border border-ink-100 bg-white p-6 shadow-xl shadow-brand-900/5 sm:p-8">{children}</div>
  );
}
