import { expect, type Page } from "@playwright/test";

/**
 * Sign-in helpers for end-to-end specs, against the test peers started by playwright.config.ts: the
 * SMTP server (mail readable over HTTP, tests/helpers/smtp-server.ts) and the OpenID Connect issuer
 * playing Google (tests/helpers/oidc-server.ts).
 */
export const MAIL_HTTP = `http://127.0.0.1:${Number(process.env.E2E_MAIL_HTTP_PORT ?? 4026)}`;
export const OIDC_URL = `http://127.0.0.1:${Number(process.env.E2E_OIDC_PORT ?? 4030)}`;

interface Mail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: number;
}

/** The sign-in link of the first e-mail to `email` received at or after `since` (ms epoch). */
export async function signInLinkFor(email: string, since: number): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${MAIL_HTTP}/messages?to=${encodeURIComponent(email.toLowerCase())}`);
        const mails = ((await res.json()) as Mail[]).filter((m) => m.receivedAt >= since);
        const match = mails[0] && /https?:\/\/\S+\/signup\?token=[A-Za-z0-9_%-]+/.exec(mails[0].text);
        link = match ? match[0] : null;
        return link;
      },
      { message: `sign-in e-mail to ${email}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link!;
}

/**
 * Sign `page` in by e-mail link, the way a person does: /signup, type the address, Continue, open
 * the link from the e-mail. Resolves on /chat, signed in (the account created).
 */
export async function signInByEmail(page: Page, email: string): Promise<void> {
  await page.goto("/signup");
  const since = Date.now() - 1000;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByTestId("auth-notice")).toContainText(email);
  const link = await signInLinkFor(email, since);
  await page.goto(link);
  await page.waitForURL("**/chat");
}

/** The identity the test issuer puts in the next Google sign-ins. */
export async function setGoogleIdentity(identity: { sub: string; email: string; email_verified?: boolean }): Promise<void> {
  const res = await fetch(`${OIDC_URL}/__test/identity`, { method: "POST", body: JSON.stringify(identity) });
  expect(res.ok).toBe(true);
}

/** A Google ID token from the test issuer (valid for the app unless `claims` say otherwise). */
export async function googleIdToken(claims: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${OIDC_URL}/__test/id-token`, { method: "POST", body: JSON.stringify(claims) });
  return ((await res.json()) as { token: string }).token;
}
