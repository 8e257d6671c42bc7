"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import {
  clearStoredEmail,
  createAccount,
  getStoredEmail,
  requestEmailLink,
  SIGNUP_COMPLETE_PATH,
  storeEmail,
  submitEmailLink,
} from "./client";
import { authErrorMessage, cleanProviderMessage } from "./errors";
import { GoogleButton, Spinner } from "./google-button";
import { isGooglePopup, reportToOpener, startGooglePopupSignIn } from "./google-popup";
import { refreshAccount } from "@/lib/browser/account/client";
import { ErrorLine, PopupDoneMessage, SignupNotices, TermsNotice } from "./notices";

type Phase =
  | "form"
  /** An e-mailed link opened on a device that does not know the address. */
  | "confirm"
  | "signing-in"
  | "finishing"
  /** This page is the Google sign-in popup and has told its opener how sign-in ended. */
  | "popup-done";

export interface SignupPanelProps {
  /** ?token= of the e-mailed link. */
  token: string | null;
  /** ?complete=1: a sign-in just completed. */
  complete: boolean;
  initialError: string | null;
  googleEnabled: boolean;
  /** ?reason=limit after the daily visitor limit (docs/product.md §8). */
  reason?: "limit" | null;
}

/** /signup (docs/product.md §2, §4): e-mail link or Google, and the landing page of both (?token=, ?complete=1). */
export function SignupPanel({ token, complete, initialError, googleEnabled, reason = null }: SignupPanelProps) {
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>(complete ? "finishing" : token ? "signing-in" : "form");
  const [email, setEmail] = useState("");
  const [confirmEmail, setConfirmEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  // Development without a mail server only: the link the server logged.
  const [devLink, setDevLink] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(authErrorMessage(initialError));
  const [busy, setBusy] = useState<"email" | "google" | null>(null);
  const started = useRef(false);
  const emailId = useId();
  const confirmId = useId();
  const errorId = useId();

  function finish() {
    createAccount().then(
      () => {
        clearStoredEmail();
        // The header was rendered signed out when sign-in happened in a popup: update it.
        void refreshAccount();
        router.replace("/chat");
      },
      (e: unknown) => setError(e instanceof Error ? e.message : "Failed to create account"),
    );
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if ((complete || initialError) && isGooglePopup()) {
      reportToOpener(complete && !initialError ? { ok: true } : { ok: false, error: initialError ?? "Callback" });
      queueMicrotask(() => setPhase("popup-done"));
      return;
    }
    // Keep the token and codes out of the address bar and history.
    if (token || complete || initialError) window.history.replaceState(null, "", "/signup");
    if (complete) {
      finish();
    } else if (token) {
      const stored = getStoredEmail();
      if (stored) submitEmailLink(token, stored);
      // After this first render, so server and client render the same first frame.
      else queueMicrotask(() => setPhase("confirm"));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onEmailSubmit(event: React.FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!address || busy) return;
    setBusy("email");
    setError(null);
    setSentTo(null);
    try {
      const link = await requestEmailLink(address);
      storeEmail(address);
      setDevLink(link);
      setSentTo(address);
    } catch (e) {
      setError(cleanProviderMessage(e instanceof Error ? e.message : null));
    } finally {
      setBusy(null);
    }
  }

  async function onGoogle() {
    if (!googleEnabled) {
      setError(authErrorMessage("GoogleUnavailable"));
      return;
    }
    setBusy("google");
    setError(null);
    try {
      // Synchronous up to window.open: the click's user activation lets the popup through.
      const outcome = await startGooglePopupSignIn(SIGNUP_COMPLETE_PATH);
      if (outcome.kind === "signed-in") {
        setPhase("finishing");
        finish();
      } else if (outcome.kind === "error") {
        setError(authErrorMessage(outcome.code));
        setBusy(null);
      }
    } catch (e) {
      setError(cleanProviderMessage(e instanceof Error ? e.message : null));
      setBusy(null);
    }
  }

  function onConfirm(event: React.FormEvent) {
    event.preventDefault();
    const address = confirmEmail.trim();
    // docs/product.md §4: if no e-mail is given, nothing happens.
    if (!address || !token) return;
    setPhase("signing-in");
    submitEmailLink(token, address);
  }

  if (phase === "popup-done") return <Card><PopupDoneMessage /></Card>;
  if (phase === "signing-in" || phase === "finishing") {
    const retry = () => {
      setError(null);
      finish();
    };
    return <SigningInCard finishing={phase === "finishing"} error={error} errorId={errorId} onRetry={retry} />;
  }
  if (phase === "confirm") return <ConfirmCard id={confirmId} value={confirmEmail} onChange={setConfirmEmail} onSubmit={onConfirm} />;

  return (
    <Card>
      <Heading title="Sign Up to Hush" subtitle="Begin chatting privately" />
      {/* "Log In" leads here too (docs/product.md §2). */}
      <p data-testid="signup-returning" className="mt-3 text-center text-sm text-ink-600">
        New or returning: the same e-mail link or Google account signs you in.
      </p>
      <SignupNotices reason={reason} sentTo={sentTo} devLink={devLink} error={error} errorId={errorId} />
      <form onSubmit={onEmailSubmit} className="mt-6 space-y-3">
        <label htmlFor={emailId} className="block text-sm font-medium text-ink-800">
          Email address
        </label>
        <input
          id={emailId}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@example.com"
          aria-describedby={error ? errorId : undefined}
          className={inputStyles}
        />
        <button type="submit" disabled={!email.trim() || busy !== null} aria-busy={busy === "email" || undefined} className={primaryButton}>
          {busy === "email" && <Spinner />}
          {busy === "email" ? "Continuing…" : "Continue"}
        </button>
      </form>
      <OrDivider />
      <GoogleButton onClick={() => void onGoogle()} busy={busy === "google"} disabled={busy === "email"} />
      <TermsNotice className="mt-8" />
    </Card>
  );
}

function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-4 text-xs font-semibold tracking-widest text-ink-500">
      <span className="h-px flex-1 bg-ink-200" />
      OR
      <span className="h-px flex-1 bg-ink-200" />
    </div>
  );
}

function SigningInCard({ finishing, error, errorId, onRetry }: { finishing: boolean; error: string | null; errorId: string; onRetry: () => void }) {
  return (
    <Card>
      <div className="flex flex-col items-center py-6 text-center" aria-live="polite" aria-busy={!error}>
        {!error && <Spinner className="h-8 w-8 text-brand-600" />}
        <h1 className="mt-4 text-2xl font-semibold tracking-tight text-ink-950">
          {finishing ? (error ? "Almost there" : "Setting up your account…") : "Signing you in…"}
        </h1>
        <p className="mt-2 text-ink-600">{error ? "Your account could not be set up yet." : "This only takes a moment."}</p>
        {error && (
          <div className="mt-6 w-full space-y-4 text-left">
            <ErrorLine message={error} id={errorId} />
            <button type="button" onClick={onRetry} className={primaryButton}>
              Try again
            </button>
          </div>
        )}
      </div>
    </Card>
  );
}

/** docs/product.md §4: the address asked for again on a device that does not know it. */
function ConfirmCard({ id, value, onChange, onSubmit }: { id: string; value: string; onChange: (value: string) => void; onSubmit: (event: React.FormEvent) => void }) {
  return (
    <Card>
      <Heading title="Sign Up to Hush" subtitle="Finish signing in" />
      <form onSubmit={onSubmit} className="mt-8 space-y-3" noValidate={false}>
        <label htmlFor={id} className="block text-sm font-medium text-ink-800">
          Please confirm your e-mail:
        </label>
        <p className="text-sm text-ink-600">
          This link was opened on a different device or browser. Enter the address it was sent to.
        </p>
        <input
          id={id}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="you@example.com"
          className={inputStyles}
        />
        <button type="submit" disabled={!value.trim()} className={primaryButton}>
          Confirm
        </button>
      </form>
      <p className="mt-6 text-center text-sm text-ink-600">
        <a href="/signup" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Start over
        </a>
      </p>
    </Card>
  );
}

const inputStyles =
  "block h-12 w-full rounded-xl border border-ink-200 bg-white px-4 text-base text-ink-950 shadow-sm placeholder:text-ink-400 focus:border-brand-600 focus:outline-none focus:ring-4 focus:ring-brand-200";

const primaryButton =
  "inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-brand-300 disabled:shadow-none";

function Card({ children }: { children: React.ReactNode }) {
  return (
    <div className="w-full max-w-md rounded-3xl border border-ink-100 bg-white p-6 shadow-xl shadow-brand-900/5 sm:p-10">
      {children}
    </div>
  );
}

function Heading({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div className="text-center">
      <div className="mx-auto mb-5 flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <rect x="5" y="10.5" width="14" height="9.5" rx="2.5" />
          <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5" />
        </svg>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight text-ink-950 sm:text-3xl">{title}</h1>
      <p className="mt-2 text-base text-ink-600">{subtitle}</p>
    </div>
  );
}
