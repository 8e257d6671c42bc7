import Link from "next/link";
import { siteConfig } from "@/config/site";

/** The red error line of the sign-in pages (docs/product.md §5). */

export function ErrorLine({ message, id }: { message: string | null; id?: string }) {
  // Always rendered, so screen readers announce a message when it appears.
  return (
    <div id={id} role="alert" data-testid="auth-error" className={message ? "rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-700" : "sr-only"}>
      {message}
    </div>
  );
}

function SuccessNotice({ children }: { children: React.ReactNode }) {
  return (
    <div role="status" data-testid="auth-notice" className="flex gap-3 rounded-xl border border-green-200 bg-green-50 px-4 py-3 text-sm text-green-800">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 h-5 w-5 shrink-0 text-green-600" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M4 7l8 6 8-6" />
        <rect x="3" y="5" width="18" height="14" rx="2" />
      </svg>
      <div>{children}</div>
    </div>
  );
}

/** The terms line under the sign-in forms (docs/product.md §2). */
export function TermsNotice({ className = "" }: { className?: string }) {
  return (
    <p className={`${className} text-center text-sm text-ink-600`}>
      By continuing, you agree to our{" "}
      <Link href={siteConfig.routes.terms} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
        Terms of Service
      </Link>
      .
    </p>
  );
}

/** Inside the Google sign-in popup once the opener was told how sign-in ended. */
export function PopupDoneMessage() {
  return (
    <div className="py-6 text-center" aria-live="polite">
      <h1 className="text-2xl font-semibold tracking-tight text-ink-950">Back to Hush</h1>
      <p className="mt-2 text-ink-600">You can close this window; the Hush tab continues.</p>
    </div>
  );
}

/** Above the sign-up form; `devLink`: the link itself in development without EMAIL_SERVER. */
export function SignupNotices({ reason, sentTo, devLink, error, errorId }: { reason: "limit" | null; sentTo: string | null; devLink: string | null; error: string | null; errorId: string }) {
  return (
  <div className="mt-6 space-y-3 empty:hidden">
    {reason === "limit" && !sentTo && (
      <p data-testid="signup-reason" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        You have used today&rsquo;s free messages for visitors. Sign up free to keep chatting.{" "}
        <span className="block pt-1">Your conversation is kept in this tab: Back returns to it, and after signing in here you can keep it as a saved chat.</span>
      </p>
    )}
    {sentTo && !devLink && (
      <SuccessNotice>
        A verification e-mail was sent to <strong className="font-semibold break-all">{sentTo}</strong>. Check your
        inbox, including spam/junk.
      </SuccessNotice>
    )}
    {sentTo && devLink && (
      <p role="status" data-testid="dev-sign-in-link" className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
        Development: no e-mail was sent to <strong className="font-semibold break-all">{sentTo}</strong> (EMAIL_SERVER is
        unset); the link is in the server log and here:{" "}
        <a href={devLink} className="font-semibold underline">
          open the sign-in link
        </a>
        .
      </p>
    )}
    <ErrorLine message={error} id={errorId} />
  </div>
  );
}
