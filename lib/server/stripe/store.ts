import "server-only";
import type Stripe from "stripe";
import type { PrismaClient } from "@/lib/server/db/client";
import { isPlanOption } from "@/config/pricing";

/**
 * The rules that fold Stripe's view of a subscription into our `subscriptions` row, safely against
 * events that arrive late, twice or out of order (webhooks give no ordering guarantee):
 * 1. a state older (Stripe time) than the stored one is ignored;
 * 2. `canceled` is terminal at Stripe, so a canceled subscription is never revived by a later-arriving
 *    update of the same subscription;
 * 3. an event about another subscription never replaces a live one (an old subscription's deletion
 *    arriving after a new purchase leaves the new one alone).
 */

/** What we keep of a Stripe subscription. */
export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: string;
  /** From the metadata we set at checkout (subscription_data.metadata.user_id), when present. */
  userId: string | null;
  planOption: number | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const TERMINAL = new Set(["canceled", "incomplete_expired"]);
const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "incomplete", "paused"]);

/** A Stripe Subscription object (from an event or a retrieve) as a snapshot. */
export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot {
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  // API 2025-03-31 and later put the period on the items; older objects carry it on the subscription.
  const itemEnd = sub.items?.data?.[0]?.current_period_end;
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const end = itemEnd ?? legacyEnd ?? null;
  const option = Number(sub.metadata?.plan_option);
  return {
    id: sub.id,
    customerId,
    status: sub.status,
    userId: sub.metadata?.user_id || null,
    planOption: isPlanOption(option) ? option : null,
    currentPeriodEnd: typeof end === "number" ? new Date(end * 1000) : null,
    cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
  };
}

/** Outcome of `applySnapshot`, for logs and tests. */
export type ApplyOutcome = "applied" | "stale" | "terminal" | "other-subscription" | "unknown-customer";

/**
 * Store `snap`, observed at Stripe time `at`, for its user (found by customer id, subscription id,
 * the metadata user id, or `fallbackUserId` = the checkout session's client_reference_id).
 */
export async function applySnapshot(
  tx: Tx,
  snap: SubscriptionSnapshot,
  at: Date,
  fallbackUserId: string | null = null,
): Promise<ApplyOutcome> {
  const row =
    (await tx.subscription.findUnique({ where: { stripeSubscriptionId: snap.id } })) ??
    (await tx.subscription.findUnique({ where: { stripeCustomerId: snap.customerId } })) ??
    (snap.userId || fallbackUserId
      ? await tx.subscription.findUnique({ where: { userId: (snap.userId ?? fallbackUserId)! } })
      : null);
  const userId = row?.userId ?? snap.userId ?? fallbackUserId;
  if (!userId || !(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) return "unknown-customer";

  if (row) {
    if (row.stripeStateAt && at < row.stripeStateAt) return "stale";
    if (row.stripeSubscriptionId === snap.id && TERMINAL.has(row.status) && !TERMINAL.has(snap.status)) return "terminal";
    if (row.stripeSubscriptionId && row.stripeSubscriptionId !== snap.id && LIVE.has(row.status) && !LIVE.has(snap.status)) {
      return "other-subscription";
    }
  }
  const data = {
    source: "stripe",
    status: snap.status,
    stripeCustomerId: snap.customerId,
    stripeSubscriptionId: snap.id,
    planOption: snap.planOption,
    currentPeriodEnd: snap.currentPeriodEnd,
    cancelAtPeriodEnd: snap.cancelAtPeriodEnd,
    stripeStateAt: at,
  };
  await tx.subscription.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return "applied";
}
