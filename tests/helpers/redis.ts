import { Redis } from "ioredis";

/** The Redis the tests use: TEST_REDIS_URL, else the local one on 127.0.0.1:6379. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Whether TEST_REDIS_URL answers a PING; Redis tests skip when it does not (a fresh machine has none). */
export async function redisAvailable(url: string = TEST_REDIS_URL): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  probe.on("error", () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
