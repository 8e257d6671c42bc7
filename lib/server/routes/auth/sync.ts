import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { forwardAuthSync } from "@/lib/server/auth/sync";

/**
 * /api/auth/sync (docs/product.md §7 auth-token sync; lib/server/auth/sync.ts): POST while signed in forwards a
 * bearer token to AUTH_SYNC_URL, DELETE forwards a DELETE. `{ ok: true, synced }`; synced is false
 * when no AUTH_SYNC_URL is configured. 502 when the receiver fails, 429 past 30 calls a minute
 * (per user; signed out per client address).
 */

export const POST = route(api.authSyncSignedIn, async ({ user }) =>
  reply(api.authSyncSignedIn, { ok: true, synced: await forwardAuthSync(user) }, { headers: PRIVATE_NO_STORE }),
);

export const DELETE = route(api.authSyncSignedOut, async () =>
  reply(api.authSyncSignedOut, { ok: true, synced: await forwardAuthSync(null) }, { headers: PRIVATE_NO_STORE }),
);
