import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { createPortalSession, stripeFailure } from "@/lib/server/stripe/checkout";

/** POST /api/customer-portal (docs/product.md §7): a Stripe Billing Portal URL; 404 without a customer, 502, 503. */
export const POST = route(api.customerPortal, { bodyOptional: true }, async ({ user }) => {
  try {
    return reply(api.customerPortal, await createPortalSession(user.id), { headers: PRIVATE_NO_STORE });
  } catch (error) {
    throw stripeFailure(error, "The billing portal could not be opened. Please try again later.", "customer-portal");
  }
});
