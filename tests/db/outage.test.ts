import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "@/app/api/me/route";
import { GET as ready } from "@/app/api/ready/route";
import { closeDb } from "@/lib/server/db/client";
import { isDatabaseUnavailable } from "@/lib/server/db/errors";
import { resetConfigForTests } from "../helpers/process-state";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy";
import { setupTestDb, type TestDb } from "./setup-db";

/**
 * PostgreSQL going away and coming back (docs/issues.md #11 faults), on PostgreSQL only: the app reaches its
 * database through a TCP pass-through that the test stops (connections cut, new ones refused) and
 * starts again. Requests answer 503 at once during the outage and work again afterwards, same process.
 */
const pgUrl = process.env.DATABASE_URL;
let t: TestDb;
let proxy: TcpProxy;
let cookie: string;

beforeAll(async () => {
  if (!pgUrl) return;
  t = await setupTestDb(); // a fresh database, migrated; now re-open it through the proxy
  const direct = new URL(process.env.DATABASE_URL!);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const viaProxy = new URL(direct);
  viaProxy.port = String(proxy.port);
  await closeDb();
  process.env.DATABASE_URL = viaProxy.toString();
  resetConfigForTests();
  const user = await createTestUser("outage@example.test");
  cookie = await sessionCookieFor(user.id);
});
afterAll(async () => {
  if (!pgUrl) return;
  await proxy.start().catch(() => undefined);
  await t.cleanup();
  await proxy.close();
});

const get = () => me(new Request("http://localhost/api/me", { headers: { cookie } }));

describe.runIf(!!pgUrl)("a PostgreSQL outage", () => {
  it("answers 503 during the outage and recovers without a restart", async () => {
    expect((await (await get()).json()) as unknown).toEqual({ user: { email: "outage@example.test" }, auth_sync: false });

    await proxy.stop();
    const down = await get();
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: "The service is briefly unavailable. Please try again in a moment." });
    expect(down.headers.get("retry-after")).toBe("5");
    const notReady = await ready(new Request("http://127.0.0.1:3000/api/ready"));
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { checks: { database: string } }).checks.database).toBe("failed");

    await proxy.start();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await get()).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect((await ready(new Request("http://127.0.0.1:3000/api/ready"))).status).toBe(200);
  });

  it("recognises a refused connection as unavailability, not a query error", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("x", { cause: { code: "57P01" } }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  });
});
