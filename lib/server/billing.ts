import "server-only";
import { cancelStripeSubscription } from "@/lib/server/stripe/checkout";

/**
 * Billing hooks called by account lifecycle endpoints. A user without a stored subscription is on the
 * Free plan (lib/server/plans.ts), so a new account needs no record.
 */

/** Put a new account on the Free plan (POST /api/create_account). Nothing to store: no row is Free. */
export async function ensureFreePlan(userId: string): Promise<void> {
  void userId;
}

/**
 * Cancel the user's paid subscription at the payment provider (POST /api/delete_user), before the
 * account is crypto-shredded: immediately, no further invoices. Idempotent; throws when cancellation
 * fails, so the deletion stops and can be retried rather than leaving a deleted account still billed.
 * @throws PaymentsNotConfiguredError, Stripe errors.
 */
export async function cancelSubscription(userId: string): Promise<void> {
  await cancelStripeSubscription(userId);
}
