import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { AppError, isAppError } from "@/lib/shared/errors";
import { logger, securityEvent } from "@/lib/server/log";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/shared/stripe/schemas";
import { processStripeEvent, verifyStripeEvent } from "@/lib/server/stripe/webhook";

/** POST /api/stripe/webhook: verified on the raw body; 400 bad signature, 500 when applying fails (Stripe retries). */
export const POST = route(api.stripeWebhook, async ({ request }) => {
  const raw = await request.text();
  if (Buffer.byteLength(raw) > WEBHOOK_MAX_BODY_BYTES) throw new AppError("payload_too_large:body", "Too large.");
  let event;
  try {
    event = verifyStripeEvent(raw, request.headers.get("stripe-signature"));
  } catch (error) {
    if (isAppError(error, "bad_request:stripe_signature")) {
      securityEvent("stripe.webhook_signature_failed", { reason: error.message });
      throw error;
    }
    logger("stripe-webhook").error({ err: error instanceof Error ? error.message : "unknown" }, "not configured");
    return Response.json({ error: "Webhooks are not configured on this server." }, { status: 500 });
  }
  try {
    return reply(api.stripeWebhook, { received: true, outcome: await processStripeEvent(event) });
  } catch (error) {
    // Signed by Stripe but not the shape its type promises: retrying cannot help.
    if (isAppError(error, "bad_request:stripe_event")) throw error;
    logger("stripe-webhook").error({ type: event.type, id: event.id, err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "event failed");
    return Response.json({ error: "The event could not be applied." }, { status: 500 });
  }
});
