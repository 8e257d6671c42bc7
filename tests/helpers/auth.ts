/**
 * Credentials for route tests (call after tests/db/setup-db.ts's setupTestDb):
 *   const user = await createTestUser();
 *   const cookie = await sessionCookieFor(user.id);          // a real session row + Cookie header
 *   new Request(url, { headers: { cookie, ...sameOrigin() } })
 *   const token = await signGoogleIdToken({ sub: "abc" });   // Authorization: Bearer <token>
 * signGoogleIdToken starts a local OpenID Connect issuer once per test file and points the app's
 * GOOGLE_ISSUER / GOOGLE_CLIENT_ID at it (process.env + resetConfigForTests).
 */
import { randomBytes } from "node:crypto";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "./process-state";
import { getDb } from "@/lib/server/db/client";
import { sessionCookieName } from "@/lib/server/auth/cookies";
import { createSession } from "@/lib/server/db/sessions";
import { startOidcServer, type TestOidcServer } from "./oidc";

export const TEST_GOOGLE_CLIENT_ID = "hush-test-client.apps.example.test";

/** Create a user row (e-mail random unless given). */
export async function createTestUser(email?: string): Promise<{ id: string; email: string }> {
  const db = await getDb();
  const address = (email ?? `user-${randomBytes(6).toString("hex")}@example.test`).toLowerCase();
  const user = await db.user.create({ data: { email: address, emailVerified: new Date() } });
  return { id: user.id, email: address };
}

/** A Cookie header value for a new, real database session of `userId`. */
export async function sessionCookieFor(userId: string): Promise<string> {
  const { token } = await createSession(userId);
  return `${sessionCookieName()}=${token}`;
}

/** Headers of a same-origin browser request (Origin = APP_URL), for state-changing calls with a cookie. */
export function sameOrigin(): Record<string, string> {
  return { Origin: new URL(getConfig().APP_URL).origin };
}

let idp: Promise<TestOidcServer> | undefined;

/** The file's test Google issuer, started on first use; GOOGLE_ISSUER and GOOGLE_CLIENT_ID point at it. */
export function startTestGoogleIssuer(): Promise<TestOidcServer> {
  idp ??= startOidcServer({ clientId: TEST_GOOGLE_CLIENT_ID }).then((server) => {
    process.env.GOOGLE_ISSUER = server.issuer;
    process.env.GOOGLE_CLIENT_ID = TEST_GOOGLE_CLIENT_ID;
    process.env.GOOGLE_CLIENT_SECRET = "hush-test-secret";
    resetConfigForTests();
    return server;
  });
  return idp;
}

/**
 * A Google ID token the app accepts: RS256 from the test issuer, aud = the client id, e-mail
 * verified. `claims` override any claim (sub, email, email_verified, aud, iss...); `expiresIn` in
 * seconds (negative for an expired token).
 */
export async function signGoogleIdToken(claims: Record<string, unknown> = {}, options: { expiresIn?: number } = {}): Promise<string> {
  const server = await startTestGoogleIssuer();
  return server.signIdToken(claims, options);
}

/** Stop the test issuer (afterAll) and forget the Google settings. */
export async function stopTestGoogleIssuer(): Promise<void> {
  const pending = idp;
  idp = undefined;
  if (!pending) return;
  await (await pending).close();
  delete process.env.GOOGLE_ISSUER;
  delete process.env.GOOGLE_CLIENT_ID;
  delete process.env.GOOGLE_CLIENT_SECRET;
  resetConfigForTests();
}
