import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { closeRateLimits, consumeEmailSignIn, retryAfterSeconds } from "@/lib/rate-limit";
import { redisAvailable, TEST_REDIS_URL } from "../helpers/redis";

/**
 * The per-address sign-in limit, in memory and in Redis (REDIS_URL; the local Redis on
 * 127.0.0.1:6379, or TEST_REDIS_URL; skipped when none answers).
 */
const REDIS_URL = TEST_REDIS_URL;

const hasRedis = await redisAvailable();
/** A fresh client address per call: these tests are about the per-mailbox count. */
const anyClient = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

afterAll(async () => {
  delete process.env.REDIS_URL;
  delete process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR;
  await closeRateLimits();
  resetConfigForTests();
});

async function exhaust(address: string): Promise<{ retryAfterSeconds: number }> {
  for (let i = 0; i < 5; i++) await consumeEmailSignIn(address, anyClient());
  const error = await consumeEmailSignIn(address, anyClient()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: "rate_limited:email-signin", status: 429 });
  return { retryAfterSeconds: retryAfterSeconds(error as AppError) };
}

describe("in memory (no REDIS_URL)", () => {
  beforeAll(async () => {
    delete process.env.REDIS_URL;
    await closeRateLimits();
    resetConfigForTests();
  });

  it("allows 5 an hour per address, then says when to retry", async () => {
    const error = await exhaust(`mem-${randomBytes(4).toString("hex")}@example.test`);
    expect(error.retryAfterSeconds).toBeGreaterThan(3500);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600);
    await expect(consumeEmailSignIn(`other-${randomBytes(4).toString("hex")}@example.test`, anyClient())).resolves.toBeUndefined();
  });

  it("follows EMAIL_SIGNIN_LIMIT_PER_HOUR", async () => {
    process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR = "1";
    resetConfigForTests();
    const address = `one-${randomBytes(4).toString("hex")}@example.test`;
    await consumeEmailSignIn(address, anyClient());
    await expect(consumeEmailSignIn(address, anyClient())).rejects.toMatchObject({ code: "rate_limited:email-signin" });
    delete process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR;
    resetConfigForTests();
  });
});

describe("with REDIS_URL pointing at a Redis that does not answer", () => {
  it("falls back to the in-memory limit instead of failing sign-in", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:9";
    await closeRateLimits();
    resetConfigForTests();
    const silence = console.error;
    console.error = () => undefined;
    try {
      await exhaust(`down-${randomBytes(4).toString("hex")}@example.test`);
    } finally {
      console.error = silence;
      delete process.env.REDIS_URL;
      await closeRateLimits();
      resetConfigForTests();
    }
  });
});

describe.skipIf(!hasRedis)("in Redis (REDIS_URL)", () => {
  beforeAll(async () => {
    process.env.REDIS_URL = REDIS_URL;
    await closeRateLimits();
    resetConfigForTests();
  });

  it("shares the count through Redis and stores no address in it", async () => {
    const address = `redis-${randomBytes(6).toString("hex")}@example.test`;
    await exhaust(address);
    // A second "instance" (fresh limiter objects over the same Redis) sees the same count.
    await closeRateLimits();
    resetConfigForTests();
    await expect(consumeEmailSignIn(address, anyClient())).rejects.toMatchObject({ code: "rate_limited:email-signin" });

    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys("hush:rl:email-signin*");
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.some((k) => k.includes(address) || k.includes("redis-"))).toBe(false);
    } finally {
      redis.disconnect();
    }
  });
});
