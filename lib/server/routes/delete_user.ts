import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { clearSessionCookie } from "@/lib/server/auth/cookies";
import { revokeUserSessions } from "@/lib/server/auth/session";
import { cancelSubscription } from "@/lib/server/billing";
import { shredUserData } from "@/lib/server/db/queries";
import { securityEvent } from "@/lib/server/log";

/**
 * POST /api/delete_user (docs/product.md §7): deletes the caller's account in one go:
 * 1. cancels the paid subscription (lib/server/billing.ts; a failure stops here, nothing is deleted);
 * 2. crypto-shreds the data (the vault, its wrapped keys and all chats are deleted, `deletedAt` is set: shredUserData);
 * 3. revokes every session (copied cookies stop working at once).
 * Answers `{ ok: true }` and clears the session cookie; repeating it on a deleted account is harmless.
 * docs/product.md §7 sends no body; a JSON one must be an empty object.
 */
export const POST = route(api.deleteUser, { bodyOptional: true }, async ({ user }) => {
  await cancelSubscription(user.id);
  await shredUserData(user.id);
  await revokeUserSessions(user.id);
  securityEvent("account.deleted", { userId: user.id });
  return reply(api.deleteUser, { ok: true }, { headers: { "Set-Cookie": clearSessionCookie(), "Cache-Control": "private, no-store" } });
});
