import "server-only";
import { getDb } from "@/lib/db/client";
import { normalizeEmail } from "@/lib/auth/email-address";

/**
 * Pro by hand for on-premises deployments without Stripe (`npm run plan -- grant|revoke <email>`).
 * A manual grant is a subscription row with source "manual" and status "active" (no period end);
 * revoking sets it "inactive". A user with a Stripe subscription is left to Stripe.
 */

/** No account has that e-mail address. */
export class UnknownUserError extends Error {
  constructor() {
    super("No account with that e-mail address.");
    this.name = "UnknownUserError";
  }
}

/** The user is billed through Stripe: change the plan there (the Customer Portal), not by hand. */
export class StripeManagedError extends Error {
  constructor() {
    super("This account has a Stripe subscription; manage it in Stripe instead.");
    this.name = "StripeManagedError";
  }
}

/**
 * Grant (`pro: true`) or revoke Pro for the account with `email`.
 * @returns the account's user id.
 * @throws UnknownUserError, StripeManagedError.
 */
export async function setManualPro(email: string, pro: boolean): Promise<string> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  if (!user) throw new UnknownUserError();
  const row = await db.subscription.findUnique({ where: { userId: user.id } });
  if (row?.stripeSubscriptionId && row.source === "stripe" && !["canceled", "incomplete_expired"].includes(row.status)) {
    throw new StripeManagedError();
  }
  const data = { source: "manual", status: pro ? "active" : "inactive", currentPeriodEnd: null, cancelAtPeriodEnd: false };
  await db.subscription.upsert({ where: { userId: user.id }, create: { userId: user.id, ...data }, update: data });
  return user.id;
}
