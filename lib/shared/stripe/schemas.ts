import { z } from "@/lib/shared/zod";
import { isPlanOption } from "@/config/pricing";

export const checkoutBodySchema = z.object({
  plan: z.coerce.number().int().refine(isPlanOption, "must be 1, 2, 3 or 4")
    // The refinement is code, so say it in the document too.
    .meta({ enum: [1, 2, 3, 4], description: "The plan option of /pricing (docs/product.md §9): 1, 2, 3 or 4." }),
}).strict();

export const customerPortalBodySchema = z.object({}).strict();

export const PAYMENT_MAX_BODY_BYTES = 1024;

/** Stripe's events are small; anything bigger is not from Stripe. */
export const WEBHOOK_MAX_BODY_BYTES = 512 * 1024;
