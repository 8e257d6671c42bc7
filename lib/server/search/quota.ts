import "server-only";
import type { Redis } from "ioredis";
import { getConfig, type Config } from "@/lib/server/config";
import { SEARCH_KEY_SUFFIX, type QuotaSubject } from "@/lib/server/db/quota-sql";
import { AppError } from "@/lib/shared/errors";
import { SEARCH_QUOTA_REFUSAL } from "@/lib/shared/confidential/protocol";

/**
 * A confidential turn asked for a search past the day's search limit: 429
 * "rate_limited:search_quota", Retry-After until the next UTC day. Only the relay refuses so; the standard path
 * answers without searching instead.
 */
export function searchQuotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:search_quota", SEARCH_QUOTA_REFUSAL, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

/**
 * The web searches of a subject per UTC day: SEARCH_PER_DAY_VISITOR, _FREE, _PRO. A turn
 * with search on counts one search in the same statement (Redis script, or the in-memory step) as the turn
 * itself, under the turn's key with SEARCH_KEY_SUFFIX; over the search limit the turn is still counted and
 * answered, without searching.
 */
export function searchLimitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.SEARCH_PER_DAY_VISITOR;
  return subject.plan === "Pro" ? config.SEARCH_PER_DAY_PRO : config.SEARCH_PER_DAY_FREE;
}


// A turn and its search in one script: KEYS[1] the turn, KEYS[2] a refusal (lib/server/rate-limit.ts blockKey, or
// a key never set), KEYS[3] the search; ARGV limit, ttl, search limit. Returns the refusal's seconds negated,
// 0 over the turn limit, 1 counted, 2 counted with the search.
const INCREMENT_WITH_SEARCH_SCRIPT = `
local b = tonumber(redis.call('GET', KEYS[2]) or '0')
if b and b > 1 then
  local ttl = redis.call('PTTL', KEYS[2])
  return -math.max(1, math.ceil(ttl / 1000))
end
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if c > tonumber(ARGV[1]) then return 0 end
local s = redis.call('INCR', KEYS[3])
if s == 1 then redis.call('EXPIRE', KEYS[3], ARGV[2]) end
if s > tonumber(ARGV[3]) then return 1 end
return 2`;

/** Run INCREMENT_WITH_SEARCH_SCRIPT for `key` (refusal key `blockKey`, or none). */
export async function redisWithSearch(redis: Redis, key: string, day: string, limit: number, searchLimit: number, blockKey: string | null): Promise<number> {
  const keys = [`hush:quota:${day}:${key}`, blockKey ?? `hush:quota:${day}:${key}:noblock`, `hush:quota:${day}:${key}${SEARCH_KEY_SUFFIX}`];
  return Number(await redis.eval(INCREMENT_WITH_SEARCH_SCRIPT, 3, ...keys, limit, 2 * 86_400, searchLimit));
}

