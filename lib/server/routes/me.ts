import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { getConfig } from "@/lib/server/config";

/**
 * GET /api/me: who the browser is signed in as, `{ user: { email } | null, auth_sync }`, for the header
 * and the account context; `auth_sync`: an AUTH_SYNC_URL is configured, so the browser calls
 * /api/auth/sync after sign-in and at sign-out (docs/product.md §7), and not at all otherwise. Unlike next-auth's /api/auth/session it sets no cookie, so a visitor's page load
 * leaves nothing behind (landing page promise: no trackers, no cookies).
 */
export const GET = route(api.me, async ({ user }) =>
  reply(api.me, { user: user ? { email: user.email } : null, auth_sync: Boolean(getConfig().AUTH_SYNC_URL) }, { headers: PRIVATE_NO_STORE }),
);
