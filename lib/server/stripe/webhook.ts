import "server-only";
import type Stripe from "stripe";
import { z } from "@/lib/shared/zod";
import { getConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { AppError } from "@/lib/shared/errors";
import { Prisma } from "@/lib/server/db/generated/prisma/client";
import { getStripe, stripeWebhooks } from "./client";
import { applySnapshot, snapshotOf, type ApplyOutcome, type SubscriptionSnapshot } from "./store";

/** POST /api/stripe/webhook: verify, then apply each event once (event row and effect in one transaction). */

const badSignature = () => new AppError("bad_request:stripe_signature", "Invalid Stripe signature.");

const malformedEvent = () => new AppError("bad_request:stripe_event", "Malformed Stripe event.");

const idOrObject = z.union([z.string().min(1), z.looseObject({ id: z.string().min(1) })]);
const metadata = z.record(z.string(), z.string()).nullish();
const envelope = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  data: z.looseObject({ object: z.looseObject({}) }),
});
const subscriptionObject = z.looseObject({
  id: z.string().min(1),
  customer: idOrObject,
  status: z.string().min(1),
  metadata,
  cancel_at_period_end: z.boolean().nullish(),
  current_period_end: z.number().nullish(),
  items: z.looseObject({ data: z.array(z.looseObject({ current_period_end: z.number().nullish() })) }).nullish(),
});
const checkoutObject = z.looseObject({
  mode: z.string().nullish(),
  subscription: idOrObject.nullish(),
  client_reference_id: z.string().nullish(),
});
const invoiceObject = z.looseObject({
  subscription: idOrObject.nullish(),
  parent: z.looseObject({ subscription_details: z.looseObject({ subscription: idOrObject.nullish() }).nullish() }).nullish(),
});

/** @throws AppError "bad_request:stripe_event" */
function assertEventShape(event: unknown): asserts event is Stripe.Event {
  const parsed = envelope.safeParse(event);
  if (!parsed.success) throw malformedEvent();
  const type = parsed.data.type;
  const object = parsed.data.data.object;
  const schema = type.startsWith("customer.subscription.")
    ? subscriptionObject
    : type === "checkout.session.completed"
      ? checkoutObject
      : type.startsWith("invoice.")
        ? invoiceObject
        : null;
  if (schema && !schema.safeParse(object).success) throw malformedEvent();
}

function signedTimestamp(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value ?? "", 10);
  }
  return timestamp;
}

/**
 * Also refuses a timestamp too far in the future (the SDK checks only the past). @param now ms since the epoch
 * @throws AppError "bad_request:stripe_signature"; Error when STRIPE_WEBHOOK_SECRET is not set.
 */
export function verifyStripeEvent(rawBody: string, signature: string | null, now: number = Date.now()): Stripe.Event {
  const config = getConfig();
  if (!config.STRIPE_WEBHOOK_SECRET) throw new Error("STRIPE_WEBHOOK_SECRET is not set.");
  if (!signature) throw badSignature();
  const tolerance = config.STRIPE_WEBHOOK_TOLERANCE_SECONDS;
  let event: Stripe.Event;
  try {
    event = stripeWebhooks().constructEvent(rawBody, signature, config.STRIPE_WEBHOOK_SECRET, tolerance, undefined, now);
  } catch {
    throw badSignature();
  }
  const skew = signedTimestamp(signature) - Math.floor(now / 1000);
  if (!(skew <= tolerance)) throw badSignature();
  return event;
}

export type EventOutcome = "duplicate" | "ignored" | ApplyOutcome;

interface Plan {
  snapshot: SubscriptionSnapshot | null;
  at: Date;
  fallbackUserId: string | null;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const parent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as Stripe.Invoice & { subscription?: string | { id: string } | null }).subscription;
  return idOf(parent ?? legacy ?? null);
}

/** Outside any transaction: it may call Stripe. */
async function planFor(event: Stripe.Event): Promise<Plan | null> {
  const eventTime = new Date(event.created * 1000);
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return { snapshot: snapshotOf(event.data.object), at: eventTime, fallbackUserId: null };
    case "checkout.session.completed": {
      const session = event.data.object;
      const subId = idOf(session.subscription);
      if (session.mode !== "subscription" || !subId) return null;
      const fetchedAt = new Date();
      const sub = await getStripe().subscriptions.retrieve(subId);
      return { snapshot: snapshotOf(sub), at: fetchedAt, fallbackUserId: session.client_reference_id ?? null };
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const subId = invoiceSubscriptionId(event.data.object);
      if (!subId) return null;
      const fetchedAt = new Date();
      const sub = await getStripe().subscriptions.retrieve(subId);
      return { snapshot: snapshotOf(sub), at: fetchedAt, fallbackUserId: null };
    }
    default:
      return null;
  }
}

/** @throws AppError "bad_request:stripe_event"; other failures store nothing, so Stripe retries. */
export async function processStripeEvent(event: Stripe.Event): Promise<EventOutcome> {
  assertEventShape(event);
  const db = await getDb();
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return "duplicate";
  const plan = await planFor(event);
  try {
    return await db.$transaction(async (tx) => {
      // Inserted first: a concurrent delivery fails on the primary key and is answered as a duplicate.
      await tx.stripeEvent.create({ data: { id: event.id, type: event.type } });
      if (!plan?.snapshot) return "ignored";
      return applySnapshot(tx, plan.snapshot, plan.at, plan.fallbackUserId);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") return "duplicate";
    throw error;
  }
}
