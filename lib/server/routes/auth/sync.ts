import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { forwardAuthSync } from "@/lib/server/auth/sync";

// /api/auth/sync (docs/product.md §7): forwards a bearer token (POST) or its removal (DELETE) to AUTH_SYNC_URL.

export const POST = route(api.authSyncSignedIn, async ({ user }) =>
  reply(api.authSyncSignedIn, { ok: true, synced: await forwardAuthSync(user) }, { headers: PRIVATE_NO_STORE }),
);

export const DELETE = route(api.authSyncSignedOut, async () =>
  reply(api.authSyncSignedOut, { ok: true, synced: await forwardAuthSync(null) }, { headers: PRIVATE_NO_STORE }),
);
