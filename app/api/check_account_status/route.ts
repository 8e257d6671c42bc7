import { requireUser } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http";

/** GET /api/check_account_status (spec §7): `{ account_deleted }` for the caller; 401 without credentials. */
export async function GET(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request, { allowDeleted: true });
    return Response.json({ account_deleted: user.deleted }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "check_account_status");
  }
}
