import { isPlanOption } from "@/config/pricing";
import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { getConfig } from "@/lib/config";
import { countryOfRequest } from "@/lib/geo";
import { ApiError, errorResponse, jsonError, readJsonBody } from "@/lib/http";
import { PaymentsNotConfiguredError } from "@/lib/stripe/client";
import { checkoutBodySchema, PAYMENT_MAX_BODY_BYTES } from "@/lib/stripe/schemas";
import { AlreadySubscribedError, createCheckoutSession } from "@/lib/stripe/checkout";
import { logger } from "@/lib/log";

/** Text of spec §8 for a checkout that could not be started. */
const CHECKOUT_FAILED_MESSAGE = "Failed to initiate checkout. Please try again later.";
const PAYMENTS_NOT_CONFIGURED_MESSAGE = "Payments are not configured on this server.";

/**
 * POST /api/create-checkout-session `{ plan: 1..4 }` (spec §7): `{ id, url }` of a Stripe Checkout
 * Session for the signed-in caller, priced for the caller's country (spec §9). 401 for visitors
 * (the page sends them to /signup), 503 when payments are not configured, 409 when already Pro,
 * 502 when Stripe fails.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    // Said before anything else, so a visitor is not sent to sign up for something that cannot be bought.
    if (!getConfig().paymentsEnabled) throw new PaymentsNotConfiguredError();
    const user = await requireUser(request);
    assertSameOrigin(request);
    const body = await readJsonBody(request, checkoutBodySchema, PAYMENT_MAX_BODY_BYTES);
    if (!isPlanOption(body.plan)) throw new ApiError(400, "Invalid request: plan must be 1, 2, 3 or 4");
    const session = await createCheckoutSession(user, body.plan, countryOfRequest(request));
    return Response.json(session, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof PaymentsNotConfiguredError) return jsonError(503, PAYMENTS_NOT_CONFIGURED_MESSAGE);
    if (error instanceof AlreadySubscribedError) return jsonError(409, error.message);
    if (error instanceof ApiError) return errorResponse(error, "create-checkout-session");
    logger("create-checkout-session").error({ kind: error instanceof Error ? error.name : "unknown" }, "Stripe error");
    return jsonError(502, CHECKOUT_FAILED_MESSAGE);
  }
}
