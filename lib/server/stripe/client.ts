import "server-only";
import Stripe from "stripe";
import { getConfig, type Config } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";

/** The Stripe SDK from lib/server/config.ts; STRIPE_API_BASE points it elsewhere (tests: a local fake). */

/** 503 without STRIPE_SECRET_KEY. */
export const paymentsNotConfigured = () => new AppError("unavailable:payments", "Payments are not configured on this server.");

let cached: { config: Config; stripe: Stripe } | undefined;

function build(key: string, config: Config): Stripe {
  const options: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 20_000, appInfo: { name: "Hush" } };
  if (config.STRIPE_API_BASE) {
    const base = new URL(config.STRIPE_API_BASE);
    options.host = base.hostname;
    options.port = base.port || (base.protocol === "https:" ? "443" : "80");
    options.protocol = base.protocol === "https:" ? "https" : "http";
  }
  return new Stripe(key, options);
}

/** @throws AppError "unavailable:payments" without STRIPE_SECRET_KEY. */
export function getStripe(): Stripe {
  const config = getConfig();
  if (!config.STRIPE_SECRET_KEY) throw paymentsNotConfigured();
  if (cached?.config !== config) cached = { config, stripe: build(config.STRIPE_SECRET_KEY, config) };
  return cached.stripe;
}

/** Signature checks are offline: no key needed. */
export function stripeWebhooks(): Stripe["webhooks"] {
  return Stripe.webhooks;
}
