import { ACCOUNT_MAX_BODY_BYTES, createAccountBodySchema } from "@/lib/account/schemas";
import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { ensureFreePlan } from "@/lib/billing";
import { ensureDataKey, UserUnavailableError } from "@/lib/db/queries";
import { errorResponse, readJsonBody } from "@/lib/http";

/**
 * POST /api/create_account (spec §4, §7): called after every sign-in; sets the account up on the
 * server: the user's data key (ensureDataKey) and the Free plan. Idempotent. A deleted account is not
 * revived: 200 `{ ok: true, account_deleted: true }` and nothing changes.
 * Errors: 401, 403 (cross-site), 400/415 (body), as `{ error }`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const user = await requireUser(request, { allowDeleted: true });
    await readJsonBody(request, createAccountBodySchema, ACCOUNT_MAX_BODY_BYTES);
    const headers = { "Cache-Control": "private, no-store" };
    if (user.deleted) return Response.json({ ok: true, account_deleted: true }, { headers });
    try {
      await ensureDataKey(user.id);
    } catch (error) {
      // Deleted between the two reads: same answer as above.
      if (error instanceof UserUnavailableError && error.reason === "deleted") {
        return Response.json({ ok: true, account_deleted: true }, { headers });
      }
      throw error;
    }
    await ensureFreePlan(user.id);
    return Response.json({ ok: true, account_deleted: false }, { headers });
  } catch (error) {
    return errorResponse(error, "create_account");
  }
}
