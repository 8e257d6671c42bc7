import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { getConfig } from "@/lib/server/config";

/** GET /api/me (docs/product.md §7): who the browser is signed in as; unlike next-auth's session call it sets no cookie. */
export const GET = route(api.me, async ({ user }) =>
  reply(api.me, { user: user ? { email: user.email } : null, auth_sync: Boolean(getConfig().AUTH_SYNC_URL) }, { headers: PRIVATE_NO_STORE }),
);
