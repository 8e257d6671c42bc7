import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { getSubscription } from "@/lib/server/plans";

/** GET /api/check_stripe_status (docs/product.md §7): the stored subscription; no Stripe call. */
export const GET = route(api.checkStripeStatus, async ({ user }) =>
  reply(api.checkStripeStatus, await getSubscription(user.id), { headers: PRIVATE_NO_STORE }),
);
