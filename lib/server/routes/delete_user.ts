import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { clearSessionCookie } from "@/lib/server/auth/cookies";
import { revokeUserSessions } from "@/lib/server/auth/session";
import { cancelSubscription } from "@/lib/server/billing";
import { shredUserData } from "@/lib/server/db/queries";
import { securityEvent } from "@/lib/server/log";

/**
 * POST /api/delete_user (docs/product.md §7): cancel the subscription (a failure stops here), crypto-shred the
 * data, revoke every session. Repeating it on a deleted account is harmless.
 */
export const POST = route(api.deleteUser, { bodyOptional: true }, async ({ user }) => {
  await cancelSubscription(user.id);
  await shredUserData(user.id);
  await revokeUserSessions(user.id);
  securityEvent("account.deleted", { userId: user.id });
  return reply(api.deleteUser, { ok: true }, { headers: { "Set-Cookie": clearSessionCookie(), "Cache-Control": "private, no-store" } });
});
