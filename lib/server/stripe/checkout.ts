import "server-only";
import { currencyForCountry, planPrice, type PlanOption } from "@/config/pricing";
import { getConfig } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { getStripe } from "./client";

/** Checkout and the Customer Portal; prices come from config/pricing.ts as price_data. */

const alreadySubscribed = () => new AppError("conflict:already_subscribed", "You already have Pro. Manage your plan in Settings.");

const noCustomer = () => new AppError("not_found:billing_customer", "There is no billing account to manage yet.");

/** Created on first use; of concurrent first calls only the first stored one is used. */
async function ensureCustomer(user: { id: string; email: string | null }): Promise<string> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId: user.id }, select: { stripeCustomerId: true } });
  if (row?.stripeCustomerId) return row.stripeCustomerId;
  const customer = await getStripe().customers.create({
    ...(user.email ? { email: user.email } : {}),
    metadata: { user_id: user.id },
  });
  await db.subscription.upsert({
    where: { userId: user.id },
    create: { userId: user.id, stripeCustomerId: customer.id },
    update: {},
  });
  const stored = await db.subscription.findUnique({ where: { userId: user.id }, select: { stripeCustomerId: true } });
  if (!stored?.stripeCustomerId) {
    await db.subscription.update({ where: { userId: user.id }, data: { stripeCustomerId: customer.id } });
    return customer.id;
  }
  return stored.stripeCustomerId;
}

/** docs/product.md §9. @throws AppError "unavailable:payments", "conflict:already_subscribed"; Stripe errors. */
export async function createCheckoutSession(
  user: { id: string; email: string | null },
  option: PlanOption,
  country: string,
): Promise<{ id: string; url: string }> {
  const db = await getDb();
  const existing = await db.subscription.findUnique({ where: { userId: user.id }, select: { status: true } });
  if (existing && ["active", "trialing", "past_due"].includes(existing.status)) throw alreadySubscribed();
  const stripe = getStripe();
  const customer = await ensureCustomer(user);
  const price = planPrice(currencyForCountry(country), option);
  const base = getConfig().APP_URL.replace(/\/+$/, "");
  const metadata = { user_id: user.id, plan_option: String(option) };
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: user.id,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: price.currency.toLowerCase(),
          unit_amount: price.launchMinor,
          recurring: { interval: "month", interval_count: price.months },
          product_data: { name: price.months === 1 ? "Hush Pro (monthly)" : `Hush Pro (${price.months} months)` },
        },
      },
    ],
    subscription_data: { metadata },
    metadata,
    success_url: `${base}/purchase-complete?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/purchase-failed`,
  });
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL.");
  return { id: session.id, url: session.url };
}

/** @throws AppError "unavailable:payments", "not_found:billing_customer"; Stripe errors. */
export async function createPortalSession(userId: string): Promise<{ url: string }> {
  const stripe = getStripe();
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { stripeCustomerId: true } });
  if (!row?.stripeCustomerId) throw noCustomer();
  const base = getConfig().APP_URL.replace(/\/+$/, "");
  const session = await stripe.billingPortal.sessions.create({ customer: row.stripeCustomerId, return_url: `${base}/settings` });
  return { url: session.url };
}

/** Cancel at once (account deletion); idempotent. @throws PaymentsNotConfiguredError; Stripe errors. */
export async function cancelStripeSubscription(userId: string): Promise<void> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId } });
  if (!row) return;
  if (row.source === "manual" || !row.stripeSubscriptionId || ["canceled", "incomplete_expired", "inactive"].includes(row.status)) {
    await db.subscription.update({ where: { userId }, data: { status: row.stripeSubscriptionId ? "canceled" : "inactive" } });
    return;
  }
  const stripe = getStripe();
  try {
    await stripe.subscriptions.cancel(row.stripeSubscriptionId, { invoice_now: false, prorate: false });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "resource_missing") throw error;
  }
  await db.subscription.update({ where: { userId }, data: { status: "canceled", cancelAtPeriodEnd: false } });
}

/** Anything not an AppError becomes a 502 "upstream:stripe", logged by kind only. */
export function stripeFailure(error: unknown, message: string, context: string): unknown {
  if (error instanceof AppError) return error;
  logger(context).error({ kind: error instanceof Error ? error.name : "unknown" }, "Stripe error");
  return new AppError("upstream:stripe", message);
}
