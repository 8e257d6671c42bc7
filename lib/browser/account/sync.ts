"use client";

import { useEffect } from "react";
import { useAccount } from "@/lib/browser/account/client";
import { apiFetch } from "@/lib/browser/api/client";

// Auth-token sync (docs/product.md §7): the browser tells our server, which forwards to AUTH_SYNC_URL, so the
// browser never calls a third party. Failures are logged only: sync never blocks the app.

/** GET /api/me's `auth_sync`, once known; until then calls are made. */
let configured: boolean | null = null;
/** A page load is one session: sign-out reloads. */
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

/** Sync the signed-in state once per page load (docs/product.md §4). */
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
