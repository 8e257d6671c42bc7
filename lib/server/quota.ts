import "server-only";
import { createHmac } from "node:crypto";
import { Redis } from "ioredis";
import { getConfig, type Config } from "@/lib/server/config";
import { getDb } from "@/lib/server/db/client";
import { AppError } from "@/lib/shared/errors";
import { STT_QUOTA_MESSAGE } from "@/lib/shared/audio/messages";
import { logger } from "@/lib/server/log";
import { writeBehindCounts, type WriteBehindCounts } from "@/lib/server/quota-write-behind";
import { counterTable, databaseStore, INCREMENT_SCRIPT, redisStore, visitorsInMemory, warnRedisDown, withFallback, type QuotaStore } from "@/lib/server/quota-stores";
import { processSlot } from "@/lib/server/process-state";
import { redisWithSearch, searchLimitFor } from "@/lib/server/search/quota";
import { SEARCH_KEY_SUFFIX, STT_KEY_SUFFIX, userQuotaKey, VISITOR_KEY_PREFIX, type QuotaSubject } from "@/lib/server/db/quota-sql";

export type { QuotaSubject };

/**
 * Daily quotas per UTC day (docs/product.md §9), in the database or Redis; visitors are keyed by HMAC-SHA256 of the
 * address under a salt of the day, never the address.
 */

/** 429 "rate_limited:quota" (docs/product.md §8). */
export function quotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:quota", "You've reached today's message limit.", { headers: { "Retry-After": String(retryAfterSeconds) } });
}


export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function secondsToNextUtcDay(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

function limitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.QUOTA_VISITOR_PER_DAY;
  return subject.plan === "Pro" ? config.QUOTA_PRO_PER_DAY : config.QUOTA_FREE_PER_DAY;
}

// As INCREMENT_SCRIPT, unless KEYS[2] holds a refusal: then its remaining seconds, negated.
const INCREMENT_UNLESS_BLOCKED_SCRIPT =
  `
local b = tonumber(redis.call('GET', KEYS[2]) or '0')
if b and b > 1 then
  local ttl = redis.call('PTTL', KEYS[2])
  return -math.max(1, math.ceil(ttl / 1000))
end` + INCREMENT_SCRIPT;

type QuotaState = {
  config: Config;
  store: QuotaStore;
  redis: Redis | null;
  visitors: WriteBehindCounts | null;
  salt: { day: string; value: Buffer } | null;
};
const shared = processSlot<QuotaState>("quota");

function current(): QuotaState {
  const config = getConfig();
  let state = shared.value;
  if (state?.config !== config) {
    state?.redis?.disconnect();
    void state?.visitors?.close();
    const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, commandTimeout: 1000 }) : null;
    redis?.on("error", (error) => logger("quota").error({ err: error.message }, "Redis error"));
    const visitors = !redis && config.database.kind === "pglite" ? writeBehindCounts(counterTable) : null;
    const store = redis ? withFallback(redisStore(redis), databaseStore) : visitors ? visitorsInMemory(visitors) : databaseStore;
    state = shared.value = { config, redis, store, visitors, salt: null };
  }
  return state;
}

async function keyFor(subject: QuotaSubject, day: string): Promise<string> {
  if (subject.kind === "user") return userQuotaKey(subject.userId);
  const s = current();
  if (s.salt?.day !== day) s.salt = { day, value: await s.store.salt(day) };
  const digest = createHmac("sha256", s.salt.value).update(subject.address ?? "unknown").digest("base64url");
  return `${VISITOR_KEY_PREFIX}${digest}`;
}

/** @throws AppError "rate_limited:quota" at the limit. */
export async function consumeQuota(subject: QuotaSubject, now = new Date()): Promise<void> {
  await consumeTurnQuota(subject, { search: false }, now);
}

/** consumeQuota, plus one web search with `search`. */
export async function consumeTurnQuota(subject: QuotaSubject, options: { search: boolean }, now = new Date()): Promise<{ searched: boolean }> {
  const day = utcDay(now);
  const key = await keyFor(subject, day);
  const counted = await current().store.increment(key, day, limitFor(subject), options.search ? searchLimitFor(subject) : undefined);
  if (!counted) throw quotaExceeded(secondsToNextUtcDay(now));
  return { searched: counted === 2 };
}

/** Count `count` queries in order, stopping at the first refusal. @returns how many were counted */
export async function consumeSearchQueries(subject: QuotaSubject, count: number, now = new Date()): Promise<number> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + SEARCH_KEY_SUFFIX;
  const limit = searchLimitFor(subject);
  const store = subject.kind === "user" ? databaseStore : current().store;
  let counted = 0;
  while (counted < count && (await store.increment(key, day, limit))) counted += 1;
  return counted;
}

function sttSecondsLimitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.STT_SECONDS_PER_DAY_VISITOR;
  return subject.plan === "Pro" ? config.STT_SECONDS_PER_DAY_PRO : config.STT_SECONDS_PER_DAY_FREE;
}

function sttQuotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:stt_quota", STT_QUOTA_MESSAGE, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/** @returns the UTC day counted. @throws AppError "rate_limited:stt_quota" past today's limit. */
export async function consumeAudioSeconds(subject: QuotaSubject, seconds: number, now = new Date()): Promise<string> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + STT_KEY_SUFFIX;
  const store = subject.kind === "user" ? databaseStore : current().store;
  if (!(await store.add(key, day, seconds, sttSecondsLimitFor(subject)))) throw sttQuotaExceeded(secondsToNextUtcDay(now));
  return day;
}

/**
 * Today's dictation seconds of `subject` on consumeAudioSeconds' counter, counting nothing (docs/issues.md #52).
 * @returns remaining: `limit` (sttSecondsLimitFor) less today's count, never below 0.
 */
export async function audioSecondsLeft(subject: QuotaSubject, now = new Date()): Promise<{ limit: number; remaining: number }> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + STT_KEY_SUFFIX;
  const store = subject.kind === "user" ? databaseStore : current().store;
  const limit = sttSecondsLimitFor(subject);
  return { limit, remaining: Math.max(0, limit - (await store.read(key, day))) };
}

/** Give back a user's dictation seconds counted on `day`; never below zero. */
export async function refundAudioSeconds(subject: QuotaSubject, seconds: number, day: string): Promise<void> {
  if (subject.kind !== "user") return;
  const db = await getDb();
  const key = userQuotaKey(subject.userId) + STT_KEY_SUFFIX;
  await db.$executeRaw`UPDATE quota_counters SET count = GREATEST(count - ${seconds}::int, 0) WHERE subject = ${key} AND day = ${day}`;
}

export async function consumeTurnUnlessBlocked(
  subject: QuotaSubject,
  block: { redisKey: string | null; check: () => Promise<number> },
  options: { search: boolean },
  now = new Date(),
): Promise<{ blocked: number; searched: boolean }> {
  const day = utcDay(now);
  const limit = limitFor(subject);
  const searchLimit = options.search ? searchLimitFor(subject) : undefined;
  const key = await keyFor(subject, day);
  const s = current();
  if (s.redis && block.redisKey) {
    let result: number | null = null;
    try {
      result = searchLimit
        ? await redisWithSearch(s.redis, key, day, limit, searchLimit, block.redisKey)
        : Number(await s.redis.eval(INCREMENT_UNLESS_BLOCKED_SCRIPT, 2, `hush:quota:${day}:${key}`, block.redisKey, limit, 2 * 86_400));
    } catch (error) {
      warnRedisDown(error);
    }
    if (result !== null) {
      if (result < 0) return { blocked: -result, searched: false };
      if (result === 0) throw quotaExceeded(secondsToNextUtcDay(now));
      return { blocked: 0, searched: result === 2 };
    }
  }
  const seconds = await block.check();
  if (seconds > 0) return { blocked: seconds, searched: false };
  const counted = await s.store.increment(key, day, limit, searchLimit);
  if (!counted) throw quotaExceeded(secondsToNextUtcDay(now));
  return { blocked: 0, searched: counted === 2 };
}

/** @throws when REDIS_URL is unset or Redis does not answer. */
export async function pingQuotaRedis(): Promise<void> {
  const redis = current().redis;
  if (!redis) throw new Error("REDIS_URL is not set");
  await redis.ping();
}

/** Day and limits for counting a signed-in send inside lib/server/db/chat-preconditions.ts's statement. */
export function userQuotaInDatabase(now = new Date()): { day: string; freeLimit: number; proLimit: number; searchFreeLimit: number; searchProLimit: number } {
  const config = getConfig();
  return {
    day: utcDay(now),
    freeLimit: limitFor({ kind: "user", userId: "", plan: "Free" }, config),
    proLimit: limitFor({ kind: "user", userId: "", plan: "Pro" }, config),
    searchFreeLimit: searchLimitFor({ kind: "user", userId: "", plan: "Free" }, config),
    searchProLimit: searchLimitFor({ kind: "user", userId: "", plan: "Pro" }, config),
  };
}

/** Give back one send (and its search) counted on `day`; never below zero. */
export async function refundUserQuota(userId: string, day: string, search = false): Promise<void> {
  const db = await getDb();
  const keys = search ? [userQuotaKey(userId), userQuotaKey(userId) + SEARCH_KEY_SUFFIX] : [userQuotaKey(userId)];
  await db.$executeRaw`UPDATE quota_counters SET count = count - 1 WHERE subject = ANY(${keys}::text[]) AND day = ${day} AND count > 0`;
}

export async function flushQuota(): Promise<void> {
  await shared.value?.visitors?.flush();
}

export async function closeQuota(): Promise<void> {
  const state = shared.value;
  shared.value = undefined;
  await state?.visitors?.close();
  const redis = state?.redis;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
