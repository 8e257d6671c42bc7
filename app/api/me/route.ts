import { getRequestUser } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http";

/**
 * GET /api/me: who the browser is signed in as, `{ user: { email } | null }`, for the header and the
 * account context. Unlike next-auth's /api/auth/session it sets no cookie, so a visitor's page load
 * leaves nothing behind (landing page promise: no trackers, no cookies).
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const user = await getRequestUser(request);
    return Response.json(
      { user: user ? { email: user.email } : null },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error, "me");
  }
}
