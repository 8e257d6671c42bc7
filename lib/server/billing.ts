import "server-only";
import { cancelStripeSubscription } from "@/lib/server/stripe/checkout";

/** Billing hooks of the account lifecycle; without a stored subscription a user is on Free. */

/** Nothing to store: no row is Free. */
export async function ensureFreePlan(userId: string): Promise<void> {
  void userId;
}

/**
 * Cancel the paid subscription at once before the account is shredded; throws so the deletion stops rather than
 * leave a deleted account billed. @throws PaymentsNotConfiguredError, Stripe errors.
 */
export async function cancelSubscription(userId: string): Promise<void> {
  await cancelStripeSubscription(userId);
}
