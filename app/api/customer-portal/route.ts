import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { ApiError, errorResponse, jsonError, readJsonBody } from "@/lib/http";
import { PaymentsNotConfiguredError } from "@/lib/stripe/client";
import { customerPortalBodySchema, PAYMENT_MAX_BODY_BYTES } from "@/lib/stripe/schemas";
import { createPortalSession, NoCustomerError } from "@/lib/stripe/checkout";
import { logger } from "@/lib/log";

/**
 * POST /api/customer-portal `{}` (spec §7): `{ url }` of a Stripe Billing Portal session for the
 * caller's customer. 404 without a customer, 503 when payments are not configured, 502 when Stripe fails.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    if (request.headers.get("content-type")) await readJsonBody(request, customerPortalBodySchema, PAYMENT_MAX_BODY_BYTES);
    return Response.json(await createPortalSession(user.id), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof PaymentsNotConfiguredError) return jsonError(503, "Payments are not configured on this server.");
    if (error instanceof NoCustomerError) return jsonError(404, error.message);
    if (error instanceof ApiError) return errorResponse(error, "customer-portal");
    logger("customer-portal").error({ kind: error instanceof Error ? error.name : "unknown" }, "Stripe error");
    return jsonError(502, "The billing portal could not be opened. Please try again later.");
  }
}
