import "server-only";
import { getDb } from "@/lib/server/db/client";

/** A user's plan and subscription from our own database only (docs/product.md §3), never the payment provider. */
export interface SubscriptionStatus {
  plan: "Free" | "Pro";
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

/** `past_due` keeps Pro during Stripe's retries. */
export const PRO_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);
/** Shown as `inactive` (docs/product.md §4: Upgrade, not Manage). */
const ENDED_STATUSES = new Set(["canceled", "incomplete_expired", "inactive"]);

const FREE: SubscriptionStatus = { plan: "Free", status: "inactive", current_period_end: null, cancel_at_period_end: false };

function planForStatus(status: string): "Free" | "Pro" {
  return PRO_STATUSES.has(status) ? "Pro" : "Free";
}

function displayStatus(status: string): string {
  return ENDED_STATUSES.has(status) ? "inactive" : status;
}

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

/** docs/product.md §6: Pro only with a live Pro subscription. */
export async function getPlan(userId: string): Promise<"Free" | "Pro"> {
  const db = await getDb();
  const row = await db.subscription.findUnique({ where: { userId }, select: { status: true } });
  return row ? planForStatus(row.status) : "Free";
}
