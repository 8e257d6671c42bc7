import "server-only";
import type Stripe from "stripe";
import type { PrismaClient } from "@/lib/server/db/client";
import { isPlanOption } from "@/config/pricing";

/**
 * Folds Stripe's subscription state into our row against late, repeated or reordered events: an older state is
 * ignored, `canceled` is terminal, and an event about another subscription never replaces a live one.
 */

export interface SubscriptionSnapshot {
  id: string;
  customerId: string;
  status: string;
  /** From subscription_data.metadata.user_id, when present. */
  userId: string | null;
  planOption: number | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const TERMINAL = new Set(["canceled", "incomplete_expired"]);
const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "incomplete", "paused"]);

export function snapshotOf(sub: Stripe.Subscription): SubscriptionSnapshot {
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  // API 2025-03-31 and later put the period on the items; older objects carry it on the subscription.
  const itemEnd = sub.items?.data?.[0]?.current_period_end;
  const legacyEnd = (sub as Stripe.Subscription & { current_period_end?: number }).current_period_end;
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

export type ApplyOutcome = "applied" | "stale" | "terminal" | "other-subscription" | "unknown-customer";

/** Store `snap` (at Stripe time `at`) for its user: by customer id, subscription id, metadata, or `fallbackUserId`. */
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
