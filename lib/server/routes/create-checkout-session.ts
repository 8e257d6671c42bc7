import "server-only";
import { isPlanOption } from "@/config/pricing";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { countryOfRequest } from "@/lib/server/geo";
import { createCheckoutSession, stripeFailure } from "@/lib/server/stripe/checkout";
import { paymentsNotConfigured } from "@/lib/server/stripe/client";

/** POST /api/create-checkout-session (docs/product.md §7, §9): a Stripe Checkout Session; 401, 409 already Pro, 502, 503. */
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
