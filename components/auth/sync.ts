"use client";

import { useEffect } from "react";
import { useAccount } from "@/lib/browser/account/client";
import { apiFetch } from "@/lib/browser/api/client";

/**
 * Auth-token sync (docs/product.md §7: "an auth-token sync call (POST with a bearer token, DELETE when there is
 * no token) goes to an optional configured URL"): the browser tells our server whether a user is
 * signed in, and the server forwards to AUTH_SYNC_URL with a Hush-issued bearer token
 * (lib/server/auth/sync.ts), so the browser never calls a third party. Failures are logged only: sync never
 * blocks the app.
 *
 * When: POST once per page load with a signed-in, not deleted account (useAuthTokenSync: a session
 * restored on page load, and every sign-in, which lands on a page with the session: the e-mail link
 * and the Google popup through /signup, /appsignup?idToken= through /chat) and on the desktop
 * hand-off; DELETE at sign-out (components/auth/sign-out.ts: Log out, Account Deleted's "Go back",
 * account deletion). Not at all when GET /api/me says no receiver is configured.
 */

/** GET /api/me's `auth_sync`, once the account context has it; until then calls are made. */
let configured: boolean | null = null;
/** This page load's POST went out (a page load is one session: sign-out reloads). */
let syncedThisPage = false;

/** POST (signed in) or DELETE (signed out) /api/auth/sync; a no-op when no receiver is configured. */
export async function syncAuthToken(signedIn: boolean): Promise<void> {
  if (configured === false) return;
  try {
    await apiFetch(signedIn ? "authSyncSignedIn" : "authSyncSignedOut");
  } catch {
    console.error("Failed to sync auth token");
  }
}

/** Sync the signed-in state of the account context (docs/product.md §4) once per page load; used by the header. */
export function useAuthTokenSync(): void {
  const account = useAccount();
  const ready = !account.loading;
  const signedIn = account.user !== null && !account.accountDeleted;
  useEffect(() => {
    if (!ready) return;
    configured = account.authSync;
    if (!signedIn || !account.authSync || syncedThisPage) return;
    syncedThisPage = true;
    void syncAuthToken(true);
  }, [ready, signedIn, account.authSync]);
}
