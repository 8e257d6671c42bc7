import "server-only";
import { getDb } from "@/lib/server/db/client";

/**
 * A user's plan and subscription as the app reads them (docs/product.md §3 Subscription: plan and status are
 * read; `inactive` leads to Upgrade), from our own database only (the `subscriptions` table, kept by
 * Stripe's webhooks in lib/server/stripe or by `npm run plan`): never a call to the payment provider.
 */
export interface SubscriptionStatus {
  plan: "Free" | "Pro";
  status: string;
  /** ISO 8601, or null. */
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

/**
 * Stripe statuses that carry the Pro plan. `past_due` keeps Pro while Stripe retries the payment
 * (its dunning window); `unpaid`, `incomplete`, `paused` and `canceled` do not.
 */
export const PRO_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);
/** Statuses after which a new purchase is needed: shown as `inactive` (docs/product.md §4: Upgrade, not Manage). */
const ENDED_STATUSES = new Set(["canceled", "incomplete_expired", "inactive"]);

const FREE: SubscriptionStatus = { plan: "Free", status: "inactive", current_period_end: null, cancel_at_period_end: false };

/** The plan a stored status gives. */
export function planForStatus(status: string): "Free" | "Pro" {
  return PRO_STATUSES.has(status) ? "Pro" : "Free";
}

/** The status as the API shows it: ended subscriptions read `inactive`. */
export function displayStatus(status: string): string {
  return ENDED_STATUSES.has(status) ? "inactive" : status;
}

/** The stored subscription of a user (Free / inactive without one); never calls the payment provider. */
export async function getSubscription(userId: string): Promise<SubscriptionStatus> {
  const db = await getDb();
  const row = await db.subscription.findUnique({
    where: { userId },
    select: { status: true, currentPeriodEnd: true, cancelAtPeriodEnd: true },
  });
  if (!row) return FREE;
  return {
    plan: planForStatus(row.status),
    status: displayStatus(row.status),
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
  };
}

/** The plan that decides model access and quotas (docs/product.md §6): Pro only with a live Pro subscription. */
export async function getPlan(userId: string): Promise<"Free" | "Pro"> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { status: true } });
  return row ? planForStatus(row.status) : "Free";
}
