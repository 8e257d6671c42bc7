import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig, type Config } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/** Rate limits in Redis with REDIS_URL (in-memory fallback), else in memory; keys are hashed. */

function rateLimited(name: string, retryAfterSeconds: number, message = "Too many requests."): AppError {
  return new AppError(`rate_limited:${name}`, message, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

export function retryAfterSeconds(error: AppError): number {
  return Number(error.headers?.["Retry-After"] ?? 0);
}

interface LimiterSpec {
  name: string;
  points: number;
  durationSeconds: number;
}

type LimitState = { config: Config; redis: Redis | null; limiters: Map<string, RateLimiterAbstract> };
const shared = processSlot<LimitState>("rateLimits");

const keyPrefix = (name: string) => `hush:rl:${name}`;

const hashedKey = (key: string) => createHash("sha256").update(key).digest("base64url");

function limiterFor(spec: LimiterSpec): RateLimiterAbstract {
  const config = getConfig();
  let state = shared.value;
  if (state?.config !== config) {
    state?.redis?.disconnect();
    const redis = config.REDIS_URL
      ? // Commands wait for the connection, so the first requests are counted in Redis.
        new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 1000 })
      : null;
    redis?.on("error", (error) => logger("rate-limit").error({ err: error.message }, "Redis error"));
    state = shared.value = { config, redis, limiters: new Map() };
  }
  const id = `${spec.name}:${spec.points}/${spec.durationSeconds}`;
  let limiter = state.limiters.get(id);
  if (!limiter) {
    const base = { keyPrefix: keyPrefix(spec.name), points: spec.points, duration: spec.durationSeconds };
    limiter = state.redis
      ? new RateLimiterRedis({ ...base, storeClient: state.redis, insuranceLimiter: new RateLimiterMemory(base) })
      : new RateLimiterMemory(base);
    state.limiters.set(id, limiter);
  }
  return limiter;
}

/** @throws AppError "rate_limited:<spec.name>" (429) at the limit. */
export async function consume(spec: LimiterSpec, key: string): Promise<void> {
  const hashed = hashedKey(key);
  try {
    await limiterFor(spec).consume(hashed);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw rateLimited(spec.name, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/** True the first time, false while still marked (a replay). */
export async function markOnce(name: string, key: string, seconds: number): Promise<boolean> {
  try {
    await limiterFor({ name: `once:${name}`, points: 1, durationSeconds: Math.max(1, Math.ceil(seconds)) }).consume(hashedKey(key));
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

const blockSpec = (name: string): LimiterSpec => ({ name: `block:${name}`, points: 1, durationSeconds: 1 });

export async function blockKey(name: string, key: string, seconds: number): Promise<void> {
  const hashed = hashedKey(key);
  await limiterFor(blockSpec(name)).block(hashed, seconds);
}

/** The Redis key holding a refusal (value above 1 while refused), for a script; null without REDIS_URL. */
export function blockRedisKey(name: string, key: string): string | null {
  if (!getConfig().REDIS_URL) return null;
  return `${keyPrefix(blockSpec(name).name)}:${hashedKey(key)}`;
}

export async function blockedSeconds(name: string, key: string): Promise<number> {
  const hashed = hashedKey(key);
  const res = await limiterFor(blockSpec(name)).get(hashed);
  if (!res || res.consumedPoints <= 1) return 0;
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

async function refund(spec: LimiterSpec, key: string): Promise<void> {
  const hashed = hashedKey(key);
  await limiterFor(spec).reward(hashed, 1);
}

/**
 * One sign-in e-mail: per client an hour, per (mailbox, client) an hour (no owner lockout), per mailbox a minute.
 * @throws AppError "rate_limited:email-signin-client", "rate_limited:email-signin" or "rate_limited:email-signin-mailbox"
 */
export async function consumeEmailSignIn(mailbox: string, client: string | null): Promise<void> {
  const config = getConfig();
  const network = client ?? "unknown";
  const steps: { spec: LimiterSpec; key: string; from: string }[] = [
    { spec: { name: "email-signin-client", points: config.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR, durationSeconds: 3600 }, key: network, from: "from your network" },
    { spec: { name: "email-signin", points: config.EMAIL_SIGNIN_LIMIT_PER_HOUR, durationSeconds: 3600 }, key: `${mailbox}\n${network}`, from: "for this address" },
    { spec: { name: "email-signin-mailbox", points: config.EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE, durationSeconds: 60 }, key: mailbox, from: "for this address" },
  ];
  for (const [i, step] of steps.entries()) {
    try {
      await consume(step.spec, step.key);
    } catch (error) {
      if (!(error instanceof AppError && error.type === "rate_limited")) throw error;
      await Promise.all(steps.slice(0, i).map((done) => refund(done.spec, done.key)));
      const seconds = retryAfterSeconds(error);
      const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? "" : "s"}`;
      throw rateLimited(step.spec.name, seconds, `Too many sign-in e-mails were requested ${step.from}. Try again in ${wait}.`);
    }
  }
}

export const DEVICE_CHANGES_PER_USER_PER_HOUR = 20;
export const DEVICE_CHANGES_PER_NETWORK_PER_HOUR = 60;

/** Per user and per network. @throws AppError "rate_limited:vault-device-user" or "rate_limited:vault-device-network" */
export async function consumeDeviceChange(userId: string, client: string | null): Promise<void> {
  const user: LimiterSpec = { name: "vault-device-user", points: DEVICE_CHANGES_PER_USER_PER_HOUR, durationSeconds: 3600 };
  const network: LimiterSpec = { name: "vault-device-network", points: DEVICE_CHANGES_PER_NETWORK_PER_HOUR, durationSeconds: 3600 };
  const refuse = (error: unknown) => {
    if (!(error instanceof AppError && error.type === "rate_limited")) return error;
    const minutes = Math.ceil(retryAfterSeconds(error) / 60);
    return rateLimited(error.code.slice("rate_limited:".length), retryAfterSeconds(error), `Too many changes to remembered devices. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
  };
  try {
    await consume(user, userId);
  } catch (error) {
    throw refuse(error);
  }
  try {
    await consume(network, client ?? "unknown");
  } catch (error) {
    await refund(user, userId);
    throw refuse(error);
  }
}

export async function closeRateLimits(): Promise<void> {
  const redis = shared.value?.redis;
  shared.value = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
