import "server-only";
import type { Redis } from "ioredis";
import { getConfig, type Config } from "@/lib/server/config";
import { SEARCH_KEY_SUFFIX, type QuotaSubject } from "@/lib/server/db/quota-sql";
import { AppError } from "@/lib/shared/errors";
import { SEARCH_QUOTA_REFUSAL } from "@/lib/shared/confidential/protocol";

/** 429 for a confidential turn searching past the day's limit. */
export function searchQuotaExceeded(retryAfterSeconds: number): AppError {
  return new AppError("rate_limited:search_quota", SEARCH_QUOTA_REFUSAL, { headers: { "Retry-After": String(retryAfterSeconds) } });
}

export function searchLimitFor(subject: QuotaSubject, config: Config = getConfig()): number {
  if (subject.kind === "visitor") return config.SEARCH_PER_DAY_VISITOR;
  return subject.plan === "Pro" ? config.SEARCH_PER_DAY_PRO : config.SEARCH_PER_DAY_FREE;
}


// Returns the refusal's seconds negated, 0 over the turn limit, 1 counted, 2 counted with the search.
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

export async function redisWithSearch(redis: Redis, key: string, day: string, limit: number, searchLimit: number, blockKey: string | null): Promise<number> {
  const keys = [`hush:quota:${day}:${key}`, blockKey ?? `hush:quota:${day}:${key}:noblock`, `hush:quota:${day}:${key}${SEARCH_KEY_SUFFIX}`];
  return Number(await redis.eval(INCREMENT_WITH_SEARCH_SCRIPT, 3, ...keys, limit, 2 * 86_400, searchLimit));
}

