import "server-only";
import { isPlanOption } from "@/config/pricing";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { countryOfRequest } from "@/lib/server/geo";
import { createCheckoutSession, stripeFailure } from "@/lib/server/stripe/checkout";
import { paymentsNotConfigured } from "@/lib/server/stripe/client";

/**
 * POST /api/create-checkout-session `{ plan: 1..4 }` (docs/product.md §7): `{ id, url }` of a Stripe Checkout
 * Session for the signed-in caller, priced for the caller's country (docs/product.md §9). 401 for visitors
 * (the page sends them to /signup), 503 when payments are not configured, 409 when already Pro,
 * 502 "Failed to initiate checkout. Please try again later." (docs/product.md §8) when Stripe fails.
 */
export const POST = route(
  api.createCheckoutSession,
  { // Said before anything else, so a visitor is not sent to sign up for something that cannot be bought.
    before: () => {
      if (!getConfig().paymentsEnabled) throw paymentsNotConfigured();
    } },
  async ({ request, user, body }) => {
    if (!isPlanOption(body.plan)) throw new AppError("bad_request:validation", "Invalid request: plan must be 1, 2, 3 or 4");
    try {
      return reply(api.createCheckoutSession, await createCheckoutSession(user, body.plan, countryOfRequest(request)), { headers: PRIVATE_NO_STORE });
    } catch (error) {
      throw stripeFailure(error, "Failed to initiate checkout. Please try again later.", "create-checkout-session");
    }
  },
);
