import "server-only";
import { getDb } from "@/lib/server/db/client";
import { normalizeEmail } from "@/lib/server/auth/email-address";
import { AppError } from "@/lib/shared/errors";

/** Pro by hand without Stripe (`npm run plan`): a "manual" subscription row; Stripe-billed users are left to Stripe. */

const unknownUser = () => new AppError("not_found:user", "No account with that e-mail address.");

const stripeManaged = () => new AppError("conflict:stripe_managed", "This account has a Stripe subscription; manage it in Stripe instead.");

/** Grant or revoke Pro for `email`. @returns the user id. @throws AppError "not_found:user", "conflict:stripe_managed". */
export async function setManualPro(email: string, pro: boolean): Promise<string> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  if (!user) throw unknownUser();
  const row = await db.subscription.findUnique({ where: { userId: user.id } });
  if (row?.stripeSubscriptionId && row.source === "stripe" && !["canceled", "incomplete_expired"].includes(row.status)) {
    throw stripeManaged();
  }
  const data = { source: "manual", status: pro ? "active" : "inactive", currentPeriodEnd: null, cancelAtPeriodEnd: false };
  await db.subscription.upsert({ where: { userId: user.id }, create: { userId: user.id, ...data }, update: data });
  return user.id;
}
