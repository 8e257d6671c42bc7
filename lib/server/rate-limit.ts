import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig, type Config } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";
import { processSlot } from "@/lib/server/process-state";

/**
 * Rate limits (rate-limiter-flexible): in Redis when REDIS_URL is set, so several app instances share
 * them, with an in-memory fallback while Redis is unreachable; otherwise in this process's memory.
 * Keys are hashed: an e-mail address used as a key is never stored in Redis as such.
 */

/**
 * Too many attempts: AppError "rate_limited:<limit name>", 429 "Too many requests." with Retry-After
 * (seconds until the next attempt is allowed).
 */
function rateLimited(name: string, retryAfterSeconds: number, message = "Too many requests."): AppError {
  return new AppError(`rate_limited:${name}`, message, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

/** The seconds of an AppError's Retry-After header (0 when it has none). */
export function retryAfterSeconds(error: AppError): number {
  return Number(error.headers?.["Retry-After"] ?? 0);
}

interface LimiterSpec {
  /** Key prefix, unique per limit. */
  name: string;
  points: number;
  durationSeconds: number;
}

type LimitState = { config: Config; redis: Redis | null; limiters: Map<string, RateLimiterAbstract> };
// An in-memory limit or block must be one store per process, whichever bundle consumes it.
const shared = processSlot<LimitState>("rateLimits");

/** The limiter's key prefix in Redis (and in memory) for limits named `name`. */
const keyPrefix = (name: string) => `hush:rl:${name}`;

/** What the limiters store for `key`: its SHA-256, so no address or mailbox is kept as it is. */
const hashedKey = (key: string) => createHash("sha256").update(key).digest("base64url");

function limiterFor(spec: LimiterSpec): RateLimiterAbstract {
  const config = getConfig();
  let state = shared.value;
  if (state?.config !== config) {
    state?.redis?.disconnect();
    const redis = config.REDIS_URL
      ? // Commands wait (at most a second) for the connection, so the first requests after start-up
        // are counted in Redis, not in a fresh in-memory fallback.
        new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 1000 })
      : null;
    // An unreachable Redis must not crash the process; the insurance limiter takes over meanwhile.
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

/**
 * Count one attempt for `key` under `spec`.
 * @throws AppError "rate_limited:<spec.name>" (429, Retry-After) when the limit is reached.
 */
export async function consume(spec: LimiterSpec, key: string): Promise<void> {
  const hashed = hashedKey(key);
  try {
    await limiterFor(spec).consume(hashed);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw rateLimited(spec.name, Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/**
 * Mark `key` used under `name` for `seconds`: true the first time, false while it is still marked (a replay).
 * Shared through Redis with REDIS_URL, so a replay to another instance is caught; else this process's memory
 * (lib/server/chat/continuation.ts, docs/issues.md #50).
 */
export async function markOnce(name: string, key: string, seconds: number): Promise<boolean> {
  try {
    await limiterFor({ name: `once:${name}`, points: 1, durationSeconds: Math.max(1, Math.ceil(seconds)) }).consume(hashedKey(key));
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}

/** The limiter that holds refusals of a kind (`name`): blocks set by `blockKey`, read by `blockedSeconds`. */
const blockSpec = (name: string): LimiterSpec => ({ name: `block:${name}`, points: 1, durationSeconds: 1 });

/**
 * Refuse `key` under `name` for `seconds` (e.g. a client caught tampering; lib/server/confidential/relay.ts),
 * shared through Redis like the limits when REDIS_URL is set.
 */
export async function blockKey(name: string, key: string, seconds: number): Promise<void> {
  const hashed = hashedKey(key);
  await limiterFor(blockSpec(name)).block(hashed, seconds);
}

/**
 * The Redis key that holds `key`'s refusal under `name` (`blockKey`), for a script that checks it in the
 * same round trip as something else (lib/server/quota.ts consumeQuotaUnlessBlocked): rate-limiter-flexible's
 * layout, `<keyPrefix>:<hashed key>`, whose value is above 1 while refused and whose TTL is the refusal's.
 * Null without REDIS_URL (refusals are then in this process's memory: `blockedSeconds` costs no round trip).
 */
export function blockRedisKey(name: string, key: string): string | null {
  if (!getConfig().REDIS_URL) return null;
  return `${keyPrefix(blockSpec(name).name)}:${hashedKey(key)}`;
}

/** Seconds `key` stays refused under `name` (`blockKey`), 0 when it is not. */
export async function blockedSeconds(name: string, key: string): Promise<number> {
  const hashed = hashedKey(key);
  const res = await limiterFor(blockSpec(name)).get(hashed);
  if (!res || res.consumedPoints <= 1) return 0;
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

/**
 * Give back one point of `key` under `spec` (a request another limit refused sent nothing, so it must not
 * use up this one).
 */
async function refund(spec: LimiterSpec, key: string): Promise<void> {
  const hashed = hashedKey(key);
  await limiterFor(spec).reward(hashed, 1);
}

/**
 * One sign-in e-mail requested for `mailbox` (lib/server/auth/email-address.ts `mailboxKey`, so "+tag", case
 * and Gmail dot variants share one count) by the client network `client` (lib/server/client-address.ts
 * `clientKey`; null counts as one unknown client). Three limits, checked in this order:
 * 1. EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR an hour per client network, whatever the addresses
 *    (one client must not mail many addresses);
 * 2. EMAIL_SIGNIN_LIMIT_PER_HOUR an hour per (mailbox, client network): a third party's requests use up
 *    their own network's count, never the owner's (mailbox lockout);
 * 3. EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE a minute per mailbox from all networks together: the ceiling on
 *    mail to one inbox. Its window is a minute, so a flood from many networks holds the owner's next link
 *    back for at most a minute at a time.
 * A request one limit refuses is given back to the limits before it: it sent nothing.
 * @throws AppError "rate_limited:email-signin-client" (1), "rate_limited:email-signin" (2) or
 *   "rate_limited:email-signin-mailbox" (3): 429 with Retry-After and the sentence the sign-in page shows.
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

/** Remembered-device changes (remember or revoke) an hour per user and per client network. */
export const DEVICE_CHANGES_PER_USER_PER_HOUR = 20;
export const DEVICE_CHANGES_PER_NETWORK_PER_HOUR = 60;

/**
 * One change of a remembered device, remembering or revoking (finding 3: each revoke
 * waits for a VACUUM FULL of the key tables), by `userId` from the client network `client`
 * (lib/server/client-address.ts `clientKey`; null counts as one unknown network): at most
 * DEVICE_CHANGES_PER_USER_PER_HOUR per user and DEVICE_CHANGES_PER_NETWORK_PER_HOUR per network, so neither
 * many accounts on one network nor one account from many networks goes past. A request the network's
 * limit refuses is given back to the user's.
 * @throws AppError "rate_limited:vault-device-user" or "rate_limited:vault-device-network" (429, Retry-After).
 */
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

/** Close the Redis connection, if any (tests, shutdown). */
export async function closeRateLimits(): Promise<void> {
  const redis = shared.value?.redis;
  shared.value = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
