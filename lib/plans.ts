import "server-only";

/**
 * A user's plan and subscription as the app reads them (spec §3 Subscription: plan and status are
 * read; `inactive` leads to Upgrade). Until billing stores subscriptions, every user is on Free.
 * The billing issue replaces the body of `getSubscription` with its stored state.
 */
export interface SubscriptionStatus {
  plan: "Free" | "Pro";
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
}

/** The stored subscription of a user; never calls the payment provider. */
export async function getSubscription(userId: string): Promise<SubscriptionStatus> {
  void userId;
  return { plan: "Free", status: "inactive", current_period_end: null, cancel_at_period_end: false };
}

/** The plan that decides model access (spec §6): Pro only with an active Pro subscription. */
export async function getPlan(userId: string): Promise<"Free" | "Pro"> {
  return (await getSubscription(userId)).plan;
}
