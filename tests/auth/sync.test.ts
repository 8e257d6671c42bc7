import http from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DELETE, POST } from "@/app/api/auth/sync/route";
import { resetConfigForTests } from "../helpers/process-state";
import { closeRateLimits } from "@/lib/server/rate-limit";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sameOrigin, sessionCookieFor } from "../helpers/auth";
import { fromPeer } from "../helpers/peer";

/**
 * Auth-token sync (docs/product.md §7): the browser calls /api/auth/sync; the server forwards to AUTH_SYNC_URL
 * (a local HTTP receiver here) with a Hush-issued bearer token, or a DELETE.
 */
let t: TestDb;
let receiver: http.Server;
let receiverUrl: string;
let answerStatus = 204;
const received: { method: string; authorization: string | undefined }[] = [];
const SECRET = "sync-secret-for-tests-0123456789abcdef";
const APP = "http://localhost:3000";

beforeAll(async () => {
  t = await setupTestDb();
  receiver = http.createServer((req, res) => {
    received.push({ method: req.method ?? "", authorization: req.headers.authorization });
    res.writeHead(answerStatus).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/auth-token`;
});

beforeEach(() => {
  received.length = 0;
  answerStatus = 204;
  process.env.AUTH_SYNC_URL = receiverUrl;
  process.env.AUTH_SYNC_SECRET = SECRET;
  resetConfigForTests();
});

afterAll(async () => {
  delete process.env.AUTH_SYNC_URL;
  delete process.env.AUTH_SYNC_SECRET;
  await closeRateLimits();
  await new Promise((resolve) => receiver.close(resolve));
  await t.cleanup();
});

const call = (handler: (r: Request) => Promise<Response>, method: string, headers: Record<string, string> = {}) =>
  handler(new Request(`${APP}/api/auth/sync`, { method, headers: { ...sameOrigin(), ...headers } }));

describe("/api/auth/sync", () => {
  it("POST while signed in forwards a short-lived HS256 token about the user", async () => {
    const user = await createTestUser("sync.user@example.test");
    const res = await call(POST, "POST", { cookie: await sessionCookieFor(user.id) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, synced: true });
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe("POST");
    const token = received[0]!.authorization!.replace(/^Bearer /, "");
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      issuer: "http://localhost:3000",
      audience: new URL(receiverUrl).origin,
    });
    expect(protectedHeader.alg).toBe("HS256");
    expect(payload.sub).toBe(user.id);
    expect(payload.email).toBe("sync.user@example.test");
    expect(payload.exp! - payload.iat!).toBe(600);
  });

  it("DELETE forwards a DELETE without any token", async () => {
    const res = await call(DELETE, "DELETE");
    expect(await res.json()).toEqual({ ok: true, synced: true });
    expect(received).toEqual([{ method: "DELETE", authorization: undefined }]);
  });

  it("POST without a session is 401 and forwards nothing; cross-site is 403", async () => {
    expect((await call(POST, "POST")).status).toBe(401);
    const user = await createTestUser();
    const cross = await call(POST, "POST", { cookie: await sessionCookieFor(user.id), Origin: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(received).toHaveLength(0);
  });

  it("does nothing without AUTH_SYNC_URL; 502 when the receiver fails", async () => {
    delete process.env.AUTH_SYNC_URL;
    resetConfigForTests();
    expect(await (await call(DELETE, "DELETE")).json()).toEqual({ ok: true, synced: false });
    expect(received).toHaveLength(0);

    process.env.AUTH_SYNC_URL = receiverUrl;
    resetConfigForTests();
    answerStatus = 500;
    const res = await call(DELETE, "DELETE");
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: "The auth-token sync failed." });
  });

  it("signed out, is limited per client address: rotating X-Forwarded-For does not escape it (docs/issues.md #10)", async () => {
    delete process.env.AUTH_SYNC_URL;
    resetConfigForTests();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await call(DELETE, "DELETE", fromPeer("198.51.100.9", { "x-forwarded-for": `203.0.113.${i}` }))).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    expect((await call(DELETE, "DELETE", fromPeer("198.51.100.10"))).status).toBe(200);
  });
});
