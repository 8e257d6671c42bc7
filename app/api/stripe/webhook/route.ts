import { jsonError } from "@/lib/http";
import { WEBHOOK_MAX_BODY_BYTES } from "@/lib/stripe/schemas";
import { MalformedEventError, processStripeEvent, verifyStripeEvent, WebhookSignatureError } from "@/lib/stripe/webhook";
import { logger, securityEvent } from "@/lib/log";

/**
 * POST /api/stripe/webhook: Stripe's events, verified on the raw body (STRIPE_WEBHOOK_SECRET).
 * 400 for a bad signature, 200 `{ received, outcome }` once applied (or already applied), 500 when
 * applying fails: nothing is stored then, so Stripe's retry applies it.
 */
export async function POST(request: Request): Promise<Response> {
  const raw = await request.text();
  if (Buffer.byteLength(raw) > WEBHOOK_MAX_BODY_BYTES) return jsonError(413, "Too large.");
  let event;
  try {
    event = verifyStripeEvent(raw, request.headers.get("stripe-signature"));
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      securityEvent("stripe.webhook_signature_failed", { reason: error.message });
      return jsonError(400, error.message);
    }
    logger("stripe-webhook").error({ err: error instanceof Error ? error.message : "unknown" }, "not configured");
    return jsonError(500, "Webhooks are not configured on this server.");
  }
  try {
    const outcome = await processStripeEvent(event);
    return Response.json({ received: true, outcome });
  } catch (error) {
    // Signed by Stripe's secret but not the shape its type promises: retrying cannot help.
    if (error instanceof MalformedEventError) return jsonError(400, error.message);
    logger("stripe-webhook").error({ type: event.type, id: event.id, err: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" }, "event failed");
    return jsonError(500, "The event could not be applied.");
  }
}
