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
 * Daily chat quotas (issue "Quotas"; docs/product.md §9 leaves the numbers open): QUOTA_VISITOR_PER_DAY per
 * visitor address, QUOTA_FREE_PER_DAY per Free user, QUOTA_PRO_PER_DAY per Pro user (a fair-use
 * ceiling), counted per UTC day.
 *
 * Counters live in the database (`quota_counters`) by default and, for visitors, in Redis when REDIS_URL
 * is set; several app instances share either. A signed-in user's sends are counted in the database always,
 * by the one statement that also checks the session (userQuotaInDatabase). Both increments are atomic and bounded: of N concurrent sends at
 * the boundary exactly the remaining allowance is admitted (a conditional upsert in PostgreSQL, one
 * Lua script in Redis). On embedded PGlite without Redis, visitors are counted in this process's memory
 * and written behind to the database (lib/server/quota-write-behind.ts: one process owns that database, so the
 * count in memory is exact; a crash may forget its last 100 ms of counts).
 *
 * Redis unavailable (docs/deploy.md "Redis"): the counters fall back to the database, which every
 * instance shares too, so the limit still holds across instances; it restarts from the database's count
 * of the day, so a subject may get up to one extra allowance over an outage. Sends are never refused
 * because Redis is down, and each costs at most Redis's commandTimeout (1 s) extra while it is.
 *
 * Visitors are counted by HMAC-SHA256(address) under a random salt of the day, kept in the same store
 * and deleted after two days; the address itself is never stored.
 */

/**
 * The daily quota is used up: AppError "rate_limited:quota", 429 with Retry-After `retryAfterSeconds`
 * (until the next UTC day). docs/product.md §8: the page shows the Upgrade message to a user and sends a visitor
 * to /signup.
 */
export function quotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:quota", "You've reached today's message limit.", { headers: { "Retry-After": String(retryAfterSeconds) } });
}


/** UTC day as YYYY-MM-DD. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function secondsToNextUtcDay(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/** The daily limit for a subject (configured; see .env.example). */
export function limitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.QUOTA_VISITOR_PER_DAY;
  return subject.plan === "Pro" ? config.QUOTA_PRO_PER_DAY : config.QUOTA_FREE_PER_DAY;
}

// INCREMENT_SCRIPT, unless KEYS[2] (a refusal kept by lib/server/rate-limit.ts blockKey) is above 1: then the
// refusal's remaining seconds, negated, and nothing is counted.
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
  /** Visitors' counts in memory (embedded PGlite without Redis), else null. */
  visitors: WriteBehindCounts | null;
  salt: { day: string; value: Buffer } | null;
};
// One Redis connection and one salt cache per process, whichever of Next's bundles counts.
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

/** The counter key of a subject for `day`: "u:<id>" or "v:<HMAC of the address under the day's salt>". */
async function keyFor(subject: QuotaSubject, day: string): Promise<string> {
  if (subject.kind === "user") return userQuotaKey(subject.userId);
  const s = current();
  if (s.salt?.day !== day) s.salt = { day, value: await s.store.salt(day) };
  const digest = createHmac("sha256", s.salt.value).update(subject.address ?? "unknown").digest("base64url");
  return `${VISITOR_KEY_PREFIX}${digest}`;
}

/**
 * Count one chat message for `subject` today.
 * @throws AppError "rate_limited:quota" when today's limit is reached (nothing is counted then).
 */
export async function consumeQuota(subject: QuotaSubject, now = new Date()): Promise<void> {
  await consumeTurnQuota(subject, { search: false }, now);
}

/**
 * consumeQuota, and with `search` one web search counted with it (see searchLimitFor).
 * @returns searched: true when the search was counted (false: not asked, or today's searches are used up)
 * @throws AppError "rate_limited:quota" when today's turn limit is reached (nothing is counted then).
 */
export async function consumeTurnQuota(subject: QuotaSubject, options: { search: boolean }, now = new Date()): Promise<{ searched: boolean }> {
  const day = utcDay(now);
  const key = await keyFor(subject, day);
  const counted = await current().store.increment(key, day, limitFor(subject), options.search ? searchLimitFor(subject) : undefined);
  if (!counted) throw quotaExceeded(secondsToNextUtcDay(now));
  return { searched: counted === 2 };
}

/**
 * Count the web-search queries of one tool step (docs/issues.md #50: with function calling the daily search quota
 * counts queries, not turns): one each, in order, under the subject's search key (SEARCH_KEY_SUFFIX), each
 * bounded by searchLimitFor; users in the database as their sends (userQuotaInDatabase), visitors in the
 * visitors' store. At most `count` round trips, stopping at the first refusal.
 * @returns how many of the `count` queries were counted: the first that many may be sent, the rest are refused
 */
export async function consumeSearchQueries(subject: QuotaSubject, count: number, now = new Date()): Promise<number> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + SEARCH_KEY_SUFFIX;
  const limit = searchLimitFor(subject);
  const store = subject.kind === "user" ? databaseStore : current().store;
  let counted = 0;
  while (counted < count && (await store.increment(key, day, limit))) counted += 1;
  return counted;
}

/**
 * Dictation's daily seconds of audio (docs/issues.md #52): STT_SECONDS_PER_DAY_VISITOR, _FREE, _PRO, per UTC day.
 */
export function sttSecondsLimitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.STT_SECONDS_PER_DAY_VISITOR;
  return subject.plan === "Pro" ? config.STT_SECONDS_PER_DAY_PRO : config.STT_SECONDS_PER_DAY_FREE;
}

/** Today's dictation seconds are used up: 429 "rate_limited:stt_quota", Retry-After until the next UTC day. */
export function sttQuotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:stt_quota", STT_QUOTA_MESSAGE, {
    headers: { "Retry-After": String(retryAfterSeconds) },
  });
}

/**
 * Count `seconds` of dictated audio for `subject` today, atomically and bounded like the messages: under the
 * subject's key with STT_KEY_SUFFIX, users in the database, visitors in the visitors' store.
 * @returns the UTC day counted (for refundAudioSeconds)
 * @throws AppError "rate_limited:stt_quota" when the seconds would pass today's limit (nothing is counted then).
 */
export async function consumeAudioSeconds(subject: QuotaSubject, seconds: number, now = new Date()): Promise<string> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + STT_KEY_SUFFIX;
  const store = subject.kind === "user" ? databaseStore : current().store;
  if (!(await store.add(key, day, seconds, sttSecondsLimitFor(subject)))) throw sttQuotaExceeded(secondsToNextUtcDay(now));
  return day;
}

/**
 * Today's dictation seconds of `subject`, read from the counter consumeAudioSeconds adds to, counting nothing
 * (docs/issues.md #52: the page learns on load whether the day's seconds are used up).
 * @returns limit: sttSecondsLimitFor; remaining: limit minus the seconds counted today, never below 0.
 */
export async function audioSecondsLeft(subject: QuotaSubject, now = new Date()): Promise<{ limit: number; remaining: number }> {
  const day = utcDay(now);
  const key = (await keyFor(subject, day)) + STT_KEY_SUFFIX;
  const store = subject.kind === "user" ? databaseStore : current().store;
  const limit = sttSecondsLimitFor(subject);
  return { limit, remaining: Math.max(0, limit - (await store.read(key, day))) };
}

/**
 * Give back `seconds` of a user's dictation counted on `day` whose transcription then failed. Visitors' counts are
 * not given back, as for their messages. Never below zero.
 */
export async function refundAudioSeconds(subject: QuotaSubject, seconds: number, day: string): Promise<void> {
  if (subject.kind !== "user") return;
  const db = await getDb();
  const key = userQuotaKey(subject.userId) + STT_KEY_SUFFIX;
  await db.$executeRaw`UPDATE quota_counters SET count = GREATEST(count - ${seconds}::int, 0) WHERE subject = ${key} AND day = ${day}`;
}

/**
 * consumeQuota, unless the subject is refused under `block`, checked in the same round trip: one Redis
 * script when REDIS_URL is set (one round trip before the model is called), else
 * `block.check()` (process memory) then the database counter.
 * @param block.redisKey lib/server/rate-limit.ts blockRedisKey (null without Redis);
 *   block.check the same refusal read the ordinary way (used without Redis, or while Redis is down).
 * @returns the seconds the subject stays refused (nothing counted), or 0 once counted.
 * @throws AppError "rate_limited:quota" when today's limit is reached (nothing is counted then).
 */
export async function consumeQuotaUnlessBlocked(
  subject: QuotaSubject,
  block: { redisKey: string | null; check: () => Promise<number> },
  now = new Date(),
  options: { search: boolean } = { search: false },
): Promise<number> {
  return (await consumeTurnUnlessBlocked(subject, block, options, now)).blocked;
}

/**
 * consumeQuotaUnlessBlocked, and with `search` one web search counted in the same step.
 * @returns blocked: the seconds the subject stays refused (nothing counted), or 0; searched: the search was counted.
 * @throws AppError "rate_limited:quota" when today's limit is reached (nothing is counted then).
 */
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

/**
 * PING the quota Redis (readiness, lib/server/health.ts). Resolves when it answers.
 * @throws when REDIS_URL is unset or Redis does not answer (commandTimeout: 1 s).
 */
export async function pingQuotaRedis(): Promise<void> {
  const redis = current().redis;
  if (!redis) throw new Error("REDIS_URL is not set");
  await redis.ping();
}

/**
 * What a signed-in send's single precondition statement (lib/server/db/chat-preconditions.ts) needs to count
 * the send in the database with `quotaIncrementSql`: today's UTC day and each plan's limit (limitFor).
 * Users are counted there whether or not REDIS_URL is set: the statement that checks the session runs
 * anyway, so counting in it keeps a send at one round trip before the model is called,
 * where a Redis counter would add one. Visitors, who have no such statement, are counted in Redis.
 */
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

/**
 * Give back one send of `userId` counted in the database on `day` (YYYY-MM-DD) by a statement that then
 * had the send refused for another reason (lib/server/chat/signed-in.ts admitUserTurn), and its search with `search`. Never below zero.
 */
export async function refundUserQuota(userId: string, day: string, search = false): Promise<void> {
  const db = await getDb();
  const keys = search ? [userQuotaKey(userId), userQuotaKey(userId) + SEARCH_KEY_SUFFIX] : [userQuotaKey(userId)];
  await db.$executeRaw`UPDATE quota_counters SET count = count - 1 WHERE subject = ANY(${keys}::text[]) AND day = ${day} AND count > 0`;
}

/**
 * Write visitors' counts still in memory to the database (embedded PGlite; a no-op otherwise). Tests,
 * and anything that reads quota_counters while the app runs.
 */
export async function flushQuota(): Promise<void> {
  await shared.value?.visitors?.flush();
}

/**
 * Write visitors' counts still in memory and close the Redis connection, if any (shutdown, before the
 * database closes; tests, benchmarks).
 */
export async function closeQuota(): Promise<void> {
  const state = shared.value;
  shared.value = undefined;
  await state?.visitors?.close();
  const redis = state?.redis;
  if (redis) await redis.quit().catch(() => redis.disconnect());
}
