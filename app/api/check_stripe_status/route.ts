import { requireUser } from "@/lib/auth/session";
import { errorResponse } from "@/lib/http";
import { getSubscription } from "@/lib/plans";

/** GET /api/check_stripe_status (spec §7): the stored subscription `{ plan, status, ... }`; no Stripe call. */
export async function GET(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    return Response.json(await getSubscription(user.id), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "check_stripe_status");
  }
}
