import { z } from "@/lib/shared/zod";
import { isPlanOption } from "@/config/pricing";

/**
 * Request schemas of the payment endpoints (docs/product.md §7). Shared by the route handlers and the OpenAPI
 * document (lib/server/openapi).
 */

/** POST /api/create-checkout-session `{ plan }`: 1..4, the plan options of config/pricing.ts (docs/product.md §9). */
export const checkoutBodySchema = z.object({
  plan: z.coerce.number().int().refine(isPlanOption, "must be 1, 2, 3 or 4")
    // The refinement is code, so say it in the document too.
    .meta({ enum: [1, 2, 3, 4], description: "The plan option of /pricing (docs/product.md §9): 1, 2, 3 or 4." }),
}).strict();

/** POST /api/customer-portal: no body, or an empty JSON object. */
export const customerPortalBodySchema = z.object({}).strict();

/** Bytes of either body. */
export const PAYMENT_MAX_BODY_BYTES = 1024;

/** Bytes of a Stripe webhook body: Stripe's events are small; anything bigger is not from Stripe. */
export const WEBHOOK_MAX_BODY_BYTES = 512 * 1024;
