import { expect, test } from "@playwright/test";
import { signInByEmail } from "./helpers/auth";

/** docs/issues.md #56: a slow request shows that work is under way (sign-in's Continue, Settings' sections). */
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

test("sign-up's Continue shows Continuing… with a spinner, disabled and busy, while the link is requested", async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/auth/signin/email**", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/signup");
  await page.getByLabel("Email address").fill(unique("pending"));
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  const pending = page.getByRole("button", { name: "Continuing…" });
  await expect(pending).toBeDisabled();
  await expect(pending).toHaveAttribute("aria-busy", "true");
  await expect(pending.locator("svg.animate-spin")).toBeVisible();
  await page.screenshot({ path: "tmp-shots/pending-continue.png" });
  release();
  await expect(page.getByTestId("auth-notice")).toContainText("A verification e-mail was sent to");
  await expect(page.getByRole("button", { name: "Continue", exact: true })).toBeVisible();
});

test("Settings shows a busy skeleton, not an empty box, while its sections load", async ({ page }) => {
  await signInByEmail(page, unique("pending-settings"));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/vault", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/settings");
  const security = page.getByTestId("security-section");
  const loading = security.getByTestId("loading-block").first();
  await expect(loading).toBeVisible();
  await expect(loading).toHaveAttribute("aria-busy", "true");
  await expect(loading).toHaveAttribute("role", "status");
  expect((await loading.boundingBox())!.height).toBeGreaterThan(20);
  await page.screenshot({ path: "tmp-shots/pending-settings.png" });
  release();
  await expect(security.getByTestId("loading-block")).toHaveCount(0, { timeout: 30_000 });
});
