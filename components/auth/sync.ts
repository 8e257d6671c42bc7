"use client";

/**
 * Auth-token sync (spec §7): tell our server whether a user is signed in; the server forwards to the
 * optional AUTH_SYNC_URL (lib/auth/sync.ts), so the browser never calls a third party. Failures are
 * logged only: sync never blocks the app.
 */
export async function syncAuthToken(signedIn: boolean): Promise<void> {
  try {
    const res = await fetch("/api/auth/sync", { method: signedIn ? "POST" : "DELETE", credentials: "same-origin" });
    if (!res.ok) console.error("Failed to sync auth token");
  } catch {
    console.error("Failed to sync auth token");
  }
}
