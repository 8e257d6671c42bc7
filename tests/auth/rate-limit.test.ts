import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { AppError } from "@/lib/shared/errors";
import { closeRateLimits, consumeEmailSignIn, retryAfterSeconds } from "@/lib/server/rate-limit";
import { redisAvailable, TEST_REDIS_URL } from "../helpers/redis";

/**
 * The sign-in mail limits (lib/server/rate-limit.ts consumeEmailSignIn), in memory and in Redis (REDIS_URL; the
 * local Redis on 127.0.0.1:6379, or TEST_REDIS_URL; skipped when none answers).
 */
const REDIS_URL = TEST_REDIS_URL;

const hasRedis = await redisAvailable();
/** A fresh client network. */
const anyClient = () => `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

afterAll(async () => {
  delete process.env.REDIS_URL;
  delete process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR;
  await closeRateLimits();
  resetConfigForTests();
});

/** Five links for `address` from one network, then the refusal of the sixth. */
async function exhaust(address: string, client = anyClient()): Promise<{ retryAfterSeconds: number }> {
  for (let i = 0; i < 5; i++) await consumeEmailSignIn(address, client);
  const error = await consumeEmailSignIn(address, client).catch((e: unknown) => e);
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

  it("allows 5 an hour per address from one network, then says when to retry", async () => {
    const error = await exhaust(`mem-${randomBytes(4).toString("hex")}@example.test`);
    expect(error.retryAfterSeconds).toBeGreaterThan(3500);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600);
    await expect(consumeEmailSignIn(`other-${randomBytes(4).toString("hex")}@example.test`, anyClient())).resolves.toBeUndefined();
  });

  it("follows EMAIL_SIGNIN_LIMIT_PER_HOUR", async () => {
    process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR = "1";
    resetConfigForTests();
    const address = `one-${randomBytes(4).toString("hex")}@example.test`;
    const client = anyClient();
    await consumeEmailSignIn(address, client);
    await expect(consumeEmailSignIn(address, client)).rejects.toMatchObject({ code: "rate_limited:email-signin" });
    delete process.env.EMAIL_SIGNIN_LIMIT_PER_HOUR;
    resetConfigForTests();
  });

  describe("a third party cannot lock the owner out (docs/issues.md #22, mailbox lockout)", () => {
    afterEach(() => vi.useRealTimers());

    it("another network's requests, however many, leave the owner's count whole", async () => {
      vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
      const address = `victim-${randomBytes(4).toString("hex")}@example.test`;
      const attacker = anyClient();
      await exhaust(address, attacker);
      for (let i = 0; i < 20; i++) await consumeEmailSignIn(address, attacker).catch(() => undefined);
      const owner = anyClient();
      // The owner's next link goes at once, and the owner's own five an hour are all there.
      await expect(consumeEmailSignIn(address, owner)).resolves.toBeUndefined();
      for (let i = 0; i < 4; i++) {
        vi.advanceTimersByTime(61_000);
        await expect(consumeEmailSignIn(address, owner)).resolves.toBeUndefined();
      }
    });

    it("a flood from many networks meets the mailbox's ceiling, which holds the owner back a minute at most", async () => {
      vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
      const address = `flood-${randomBytes(4).toString("hex")}@example.test`;
      for (let i = 0; i < 6; i++) await consumeEmailSignIn(address, anyClient());
      const owner = anyClient();
      const refused = await consumeEmailSignIn(address, owner).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: "rate_limited:email-signin-mailbox", status: 429 });
      const wait = retryAfterSeconds(refused as AppError);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect((refused as AppError).message).toMatch(/^Too many sign-in e-mails were requested for this address\. Try again in (\d+ seconds?|1 minute)\.$/);
      // The flood goes on while the owner waits: still at most the rest of that minute for the owner.
      for (let i = 0; i < 10; i++) await consumeEmailSignIn(address, anyClient()).catch(() => undefined);
      vi.advanceTimersByTime(wait * 1000 + 1);
      await expect(consumeEmailSignIn(address, owner)).resolves.toBeUndefined();
      // The refused request used up nothing of the owner's own five.
      for (let i = 0; i < 4; i++) {
        vi.advanceTimersByTime(61_000);
        await expect(consumeEmailSignIn(address, owner)).resolves.toBeUndefined();
      }
      vi.advanceTimersByTime(61_000);
      await expect(consumeEmailSignIn(address, owner)).rejects.toMatchObject({ code: "rate_limited:email-signin" });
    });
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
    const client = anyClient();
    await exhaust(address, client);
    // A second "instance" (fresh limiter objects over the same Redis) sees the same count.
    await closeRateLimits();
    resetConfigForTests();
    await expect(consumeEmailSignIn(address, client)).rejects.toMatchObject({ code: "rate_limited:email-signin" });

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
