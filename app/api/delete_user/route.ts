import { ACCOUNT_MAX_BODY_BYTES, deleteUserBodySchema } from "@/lib/account/schemas";
import { assertSameOrigin, requireUser, revokeUserSessions } from "@/lib/auth/session";
import { clearSessionCookie } from "@/lib/auth/cookies";
import { cancelSubscription } from "@/lib/billing";
import { shredUserData } from "@/lib/db/queries";
import { errorResponse, readJsonBody } from "@/lib/http";
import { securityEvent } from "@/lib/log";

/**
 * POST /api/delete_user (spec §7): deletes the caller's account in one go:
 * 1. cancels the paid subscription (lib/billing.ts; a failure stops here, nothing is deleted);
 * 2. crypto-shreds the data (the data key and all chats are deleted, `deletedAt` is set: shredUserData);
 * 3. revokes every session (copied cookies stop working at once).
 * Answers `{ ok: true }` and clears the session cookie; repeating it on a deleted account is harmless.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const user = await requireUser(request, { allowDeleted: true });
    // Spec §7 sends no body; a JSON one must be an empty object.
    if (request.headers.get("content-type") && request.headers.get("content-length") !== "0" && request.body) {
      await readJsonBody(request, deleteUserBodySchema, ACCOUNT_MAX_BODY_BYTES);
    }
    await cancelSubscription(user.id);
    await shredUserData(user.id);
    await revokeUserSessions(user.id);
    securityEvent("account.deleted", { userId: user.id });
    return Response.json(
      { ok: true },
      { headers: { "Set-Cookie": clearSessionCookie(), "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error, "delete_user");
  }
}
