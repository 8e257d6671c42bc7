import assert from "node:assert/strict";
import { extractSignInLink } from "../../tests/helpers/smtp";
import type { HttpsClient } from "./https-client";
import type { Stack } from "./stack";

/**
 * Sign in with the e-mail link, as /signup does (through nginx, or one instance's http origin); returns the
 * instance that created the session.
 */
export async function signIn(stack: Pick<Stack, "origin" | "smtp">, client: HttpsClient, email: string): Promise<string> {
  const csrf = await client.json<{ csrfToken: string }>("GET", "/api/auth/csrf");
  assert.equal(csrf.status, 200);
  const since = Date.now();
  const requested = await client.request("POST", "/api/auth/signin/email", {
    form: { email, csrfToken: csrf.data!.csrfToken, callbackUrl: `${stack.origin}/signup?complete=1`, json: "true" },
  });
  assert.equal(requested.status, 200, requested.body);
  const mail = await stack.smtp.waitForMail(email, { since, timeoutMs: 15_000 });
  const link = new URL(extractSignInLink(mail));
  assert.equal(link.origin, stack.origin, "the e-mailed link points at the public https origin");
  const token = link.searchParams.get("token")!;
  const done = await client.request("POST", `/api/auth/callback/email?${new URLSearchParams({ token, email })}`, {
    form: { callbackUrl: `${stack.origin}/signup?complete=1` },
  });
  assert.ok(done.status === 200 || done.status === 302, `callback answered ${done.status}: ${done.body.slice(0, 200)}`);
  const cookie = stack.origin.startsWith("https:") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
  assert.ok(client.jar.has(cookie), "the session cookie is set");
  return done.upstream;
}

