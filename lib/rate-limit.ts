import "server-only";
import { createHash } from "node:crypto";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { getConfig, type Config } from "@/lib/config";
import { logger } from "@/lib/log";

/**
 * Rate limits (rate-limiter-flexible): in Redis when REDIS_URL is set, so several app instances share
 * them, with an in-memory fallback while Redis is unreachable; otherwise in this process's memory.
 * Keys are hashed: an e-mail address used as a key is never stored in Redis as such.
 */

/** Too many attempts; `retryAfterSeconds` until the next one is allowed. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("Rate limit exceeded.");
    this.name = "RateLimitedError";
  }
}

interface LimiterSpec {
  /** Key prefix, unique per limit. */
  name: string;
  points: number;
  durationSeconds: number;
}

let state: { config: Config; redis: Redis | null; limiters: Map<string, RateLimiterAbstract> } | undefined;

function limiterFor(spec: LimiterSpec): RateLimiterAbstract {
  const config = getConfig();
  if (state?.config !== config) {
    state?.redis?.disconnect();
    const redis = config.REDIS_URL
      ? // Commands wait (at most a second) for the connection, so the first requests after start-up
        // are counted in Redis, not in a fresh in-memory fallback.
        new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 1000 })
      : null;
    // An unreachable Redis must not crash the process; the insurance limiter takes over meanwhile.
    redis?.on("error", (error) => logger("rate-limit").error({ err: error.message }, "Redis error"));
    state = { config, redis, limiters: new Map() };
  }
  const id = `${spec.name}:${spec.points}/${spec.durationSeconds}`;
  let limiter = state.limiters.get(id);
  if (!limiter) {
    const base = { keyPrefix: `hush:rl:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
    limiter = state.redis
      ? new RateLimiterRedis({ ...base, storeClient: state.redis, insuranceLimiter: new RateLimiterMemory(base) })
      : new RateLimiterMemory(base);
    state.limiters.set(id, limiter);
  }
  return limiter;
}

/**
 * Count one attempt for `key` under `spec`.
 * @throws RateLimitedError when the limit is reached.
 */
export async function consume(spec: LimiterSpec, key: string): Promise<void> {
  const hashed = createHash("sha256").update(key).digest("base64url");
  try {
    await limiterFor(spec).consume(hashed);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    throw error;
  }
}

/** Which sign-in limit refused: the mailbox's or the client address's. */
export class SignInRateLimitedError extends RateLimitedError {
  constructor(
    retryAfterSeconds: number,
    readonly scope: "mailbox" | "client",
  ) {
    super(retryAfterSeconds);
    this.name = "SignInRateLimitedError";
  }
}

/**
 * One sign-in e-mail requested for `mailbox` (lib/auth/email-address.ts `mailboxKey`, so "+tag", case
 * and Gmail dot variants share one count) by the client at `client` (lib/client-address.ts; null
 * counts as one unknown client): at most EMAIL_SIGNIN_LIMIT_PER_HOUR an hour per mailbox (spec §4
 * e-mail link) and EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR an hour per client address (issue 10: one
 * client must not mail many addresses). Both are counted on every request.
 * @throws SignInRateLimitedError naming the limit that refused.
 */
export async function consumeEmailSignIn(mailbox: string, client: string | null): Promise<void> {
  const config = getConfig();
  const results = await Promise.allSettled([
    consume({ name: "email-signin", points: config.EMAIL_SIGNIN_LIMIT_PER_HOUR, durationSeconds: 3600 }, mailbox),
    consume({ name: "email-signin-client", points: config.EMAIL_SIGNIN_LIMIT_PER_CLIENT_PER_HOUR, durationSeconds: 3600 }, client ?? "unknown"),
  ]);
  const scopes = ["mailbox", "client"] as const;
  for (const [i, result] of results.entries()) {
    if (result.status === "rejected") {
      if (result.reason instanceof RateLimitedError) throw new SignInRateLimitedError(result.reason.retryAfterSeconds, scopes[i]!);
      throw result.reason;
    }
  }
}

/** Close the Redis connection, if any (tests, shutdown). */
export async function closeRateLimits(): Promise<void> {
  const redis = state?.redis;
  state = undefined;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
