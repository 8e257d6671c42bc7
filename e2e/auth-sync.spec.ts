import { expect, test } from "@playwright/test";
import { setGoogleIdentity, signInByEmail } from "./helpers/auth";

/**
 * Auth-token sync end to end (docs/product.md §7: "an auth-token sync call (POST with a bearer token, DELETE when
 * there is no token) goes to an optional configured URL"). playwright.config.ts starts a receiver
 * (tests/helpers/auth-sync-receiver.ts) and points the app's AUTH_SYNC_URL at it; the browser calls
 * /api/auth/sync and the server forwards. The receiver verifies each bearer token with the shared
 * secret, as a real one would.
 */
const RECEIVER = `http://127.0.0.1:${Number(process.env.E2E_AUTH_SYNC_PORT ?? 4050)}`;

interface Received {
  method: string;
  path: string;
  authorization: string | null;
  receivedAt: number;
  claims: { sub?: string; email?: string; iss?: string } | null;
  error: string | null;
}

async function receivedSince(since: number): Promise<Received[]> {
  const res = await fetch(`${RECEIVER}/__test/received`);
  return ((await res.json()) as Received[]).filter((r) => r.receivedAt >= since);
}

const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

test("signing in by e-mail link POSTs a bearer token for the user; Log out sends a DELETE", async ({ page, baseURL }) => {
  const email = unique("sync");
  const since = Date.now();
  // The page's own POSTs to /api/auth/sync, beside what the receiver got: should the two counts differ, the
  // failure says which side made the extra call (the browser's network stack may resend a request whose
  // reused connection closed before any answer; the page does not see that resend).
  const pageSyncs: number[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/auth/sync") pageSyncs.push(Date.now());
  });
  await signInByEmail(page, email);

  // Sign-in: one POST with a bearer token the receiver verifies, about this user. Only this user's POSTs
  // are counted: the receiver serves the whole run.
  const mine = async (after: number) => (await receivedSince(after)).filter((r) => r.method === "POST" && r.claims?.email === email);
  await expect.poll(async () => (await mine(since)).length).toBeGreaterThan(0);
  const posts = await mine(since);
  const seen = () => `page POSTs at ${JSON.stringify(pageSyncs.map((t) => t - since))} ms, receiver POSTs at ${JSON.stringify(posts.map((r) => r.receivedAt - since))} ms`;
  expect(pageSyncs, seen()).toHaveLength(1);
  expect(posts, seen()).toHaveLength(1);
  expect(posts[0]!.path).toBe("/auth-token");
  expect(posts[0]!.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
  expect(posts[0]!.error).toBeNull();
  expect(posts[0]!.claims).toMatchObject({ email, iss: new URL(baseURL!).origin });

  // A page load with the session (session restore) syncs again, once.
  const beforeReload = Date.now();
  await page.reload();
  await expect.poll(async () => (await mine(beforeReload)).length).toBe(1);

  // Log out: a DELETE without a token; the page reloads signed out and syncs nothing more.
  const beforeSettings = Date.now();
  await page.goto("/settings");
  await expect.poll(async () => (await mine(beforeSettings)).length).toBe(1);
  const beforeLogout = Date.now();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect.poll(async () => (await receivedSince(beforeLogout)).map((r) => r.method)).toEqual(["DELETE"]);
  const [del] = await receivedSince(beforeLogout);
  expect(del!.authorization).toBeNull();
  await expect(page.getByRole("link", { name: "Sign Up" }).first()).toBeVisible();
  expect((await receivedSince(beforeLogout)).map((r) => r.method)).toEqual(["DELETE"]);
});

test("Google popup sign-in and the desktop hand-off each POST a bearer token for the user", async ({ page }) => {
  const web = unique("sync-google");
  await setGoogleIdentity({ sub: `sync-web-${Date.now()}`, email: web });
  let since = Date.now();
  await page.goto("/signup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL("**/chat");
  await expect.poll(async () => (await receivedSince(since)).filter((r) => r.claims?.email === web).map((r) => r.method)).toEqual(["POST"]);

  // /appsignup has no header: the hand-off itself syncs before opening the desktop app's deep link.
  await page.context().clearCookies();
  const desktop = unique("sync-desktop");
  await setGoogleIdentity({ sub: `sync-desktop-${Date.now()}`, email: desktop });
  since = Date.now();
  await page.goto("/appsignup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await expect(page.getByTestId("open-desktop-app")).toBeVisible();
  await expect.poll(async () => (await receivedSince(since)).filter((r) => r.claims?.email === desktop).map((r) => r.method)).toEqual(["POST"]);
});
