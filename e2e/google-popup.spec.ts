import { expect, test, type Page } from "@playwright/test";
import { OIDC_URL, setGoogleIdentity } from "./helpers/auth";

/**
 * docs/issues.md #13 / docs/product.md §4 "Google sign-in: popup sign-in, then account creation, then /chat": Google
 * sign-in opens the provider (the test OpenID Connect server started by playwright.config.ts) in a
 * popup, the page stays loaded; a blocked or closed popup falls back to the full-page redirect.
 */
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

/** A mark that lives as long as this document: gone after any full page load. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __hushMark: number }).__hushMark = 42));
}
const documentMark = (page: Page) => page.evaluate(() => (window as unknown as { __hushMark?: number }).__hushMark ?? null);

async function session(page: Page): Promise<{ user?: { email?: string } }> {
  return page.evaluate(async () => (await fetch("/api/auth/session")).json());
}

/**
 * From /signup, Google sign-in through the popup for a new identity: the page must land on /chat signed in
 * as it, without a reload. `typed` runs on the page before the click.
 */
async function signInThroughPopup(page: Page, name: string, typed?: () => Promise<void>): Promise<void> {
  const email = unique(name);
  await setGoogleIdentity({ sub: `${name}-${Date.now()}`, email });
  await page.goto("/signup");
  await typed?.();
  await markDocument(page);
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  // The popup goes to the provider, comes back to our origin, and closes itself.
  await (await popupPromise).waitForEvent("close", { timeout: 30_000 });
  await page.waitForURL("**/chat");
  expect(await documentMark(page)).toBe(42);
  expect((await session(page)).user).toEqual({ email });
}

test("/signup: Google opens in a popup, the page stays loaded, then /chat", async ({ page }) => {
  // Something typed on the page survives (the page is never reloaded).
  await signInThroughPopup(page, "popup", () => page.getByLabel("Email address").fill("typed-before@example.test"));
  const status = await page.evaluate(async () => (await fetch("/api/check_account_status")).json());
  expect(status).toEqual({ account_deleted: false });
  // The header knows the user now (Settings instead of Sign Up).
  await expect(page.getByRole("banner").getByRole("link", { name: "Settings" })).toBeVisible();
});

test("/signup: an opener slow to take the popup's report still gets it: the popup waits for it, no reload", async ({ page }) => {
  // The opener's channel hands each message over 1.5 s late (a busy page), longer than its closed-poll.
  // Only this page: the popup is another page and keeps the browser's own BroadcastChannel.
  await page.addInitScript(() => {
    const Native = window.BroadcastChannel;
    class Late extends Native {
      set onmessage(handler: ((event: MessageEvent) => void) | null) {
        super.onmessage = handler && ((event: MessageEvent) => void setTimeout(() => handler.call(this, event), 1_500));
      }
    }
    window.BroadcastChannel = Late;
  });
  await signInThroughPopup(page, "slow-opener");
});

test("/signup: a Google error in the popup shows on the page that opened it", async ({ page }) => {
  await setGoogleIdentity({ sub: `popup-unverified-${Date.now()}`, email: unique("popup-unverified"), email_verified: false });
  await page.goto("/signup");
  await markDocument(page);
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await (await popupPromise).waitForEvent("close", { timeout: 30_000 });
  await expect(page.getByTestId("auth-error")).toHaveText("Your Google account's e-mail address is not verified.");
  expect(new URL(page.url()).pathname).toBe("/signup");
  expect(await documentMark(page)).toBe(42);
  expect((await session(page)).user).toBeUndefined();
});

test("/signup: with popups blocked, Google sign-in falls back to the full-page redirect", async ({ page }) => {
  const email = unique("blocked");
  await setGoogleIdentity({ sub: `blocked-${Date.now()}`, email });
  // What a popup blocker does to window.open: it returns null.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  let popups = 0;
  page.on("popup", () => popups++);
  await page.goto("/signup");
  await markDocument(page);
  const toProvider = page.waitForRequest((req) => req.url().startsWith(OIDC_URL) && req.isNavigationRequest());
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await toProvider;
  await page.waitForURL("**/chat");
  expect(popups).toBe(0);
  expect(await documentMark(page)).toBeNull();
  expect((await session(page)).user).toEqual({ email });
});

test("/signup: a popup closed before it finished falls back to the full-page redirect", async ({ page, context }) => {
  const email = unique("closed");
  await setGoogleIdentity({ sub: `closed-${Date.now()}`, email });
  // Hold the provider's page in the popup so it can be closed mid-way.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await context.route(`${OIDC_URL}/**`, async (route) => {
    if (route.request().frame().page() !== page) {
      await held;
      await route.abort().catch(() => undefined);
    } else {
      await route.continue();
    }
  });
  await page.goto("/signup");
  await markDocument(page);
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupPromise;
  await popup.waitForRequest((req) => req.url().startsWith(OIDC_URL));
  await popup.close();
  release();
  await page.waitForURL("**/chat", { timeout: 30_000 });
  expect(await documentMark(page)).toBeNull();
  expect((await session(page)).user).toEqual({ email });
});

test("/appsignup: Google in a popup, then the desktop deep link", async ({ page }) => {
  await setGoogleIdentity({ sub: `popup-desktop-${Date.now()}`, email: unique("popup-desktop") });
  await page.goto("/appsignup");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Continue with Google" }).click();
  const popup = await popupPromise;
  // The popup never opens the desktop app itself: it reports back and closes.
  let popupOpenedApp = false;
  popup.on("request", (req) => {
    if (req.url().startsWith("hush:")) popupOpenedApp = true;
  });
  await popup.waitForEvent("close", { timeout: 30_000 });
  const openLink = page.getByTestId("open-desktop-app");
  await expect(openLink).toBeVisible();
  expect(await openLink.getAttribute("href")).toMatch(/^hush:\/\/auth\?idToken=[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(popupOpenedApp).toBe(false);
});

test("/appsignup: with popups blocked, Google falls back to the full-page redirect", async ({ page }) => {
  await setGoogleIdentity({ sub: `blocked-desktop-${Date.now()}`, email: unique("blocked-desktop") });
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto("/appsignup");
  const toProvider = page.waitForRequest((req) => req.url().startsWith(OIDC_URL) && req.isNavigationRequest());
  await page.getByRole("button", { name: "Continue with Google" }).click();
  await toProvider;
  await expect(page.getByTestId("open-desktop-app")).toBeVisible();
});
