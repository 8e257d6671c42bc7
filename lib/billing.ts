import "server-only";

/**
 * Billing hooks called by account lifecycle endpoints, before the billing issue implements them.
 * Until then a user without a stored subscription is on the Free plan (lib/plans.ts), so both are
 * no-ops.
 */

/**
 * Put a new account on the Free plan (POST /api/create_account). Idempotent.
 * TODO(billing issue): create the Free subscription record if billing stores one per user.
 */
export async function ensureFreePlan(userId: string): Promise<void> {
  void userId;
}

/**
 * Cancel the user's paid subscription at the payment provider (POST /api/delete_user), before the
 * account is crypto-shredded. Must be idempotent and throw when cancellation fails, so the deletion
 * stops and can be retried rather than leaving a deleted account still billed.
 * TODO(billing issue): cancel the Stripe subscription (immediately, no further invoices).
 */
export async function cancelSubscription(userId: string): Promise<void> {
  void userId;
}
