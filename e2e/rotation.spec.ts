import { expect, test } from "@playwright/test";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #21, "Rotate vault key", as a person does it: Settings → Security, a passphrase for the new key,
 * the new recovery code saved, the chats re-encrypted. After a reload the old passphrase opens nothing and
 * the new one opens the same chats, with no integrity warning (tests/api/vault-rotation.test.ts tries
 * every stored wrap).
 */
const SCREENS = "test-results/screens";
const OLD = "cobalt herons fold maps at midnight";
const NEW = "saffron tugboats whistle over frozen canals";

test("rotating the vault key re-encrypts the chats; the old passphrase then opens nothing", async ({ page }) => {
  test.slow(); // Argon2id four times (setup, the new wrap, two unlocks)
  await signInOnLocalhost(page, `rotate-${Date.now()}@example.com`);
  const sidebar = sidebarOf(page);
  await turnOnHistoryWithPassphrase(page, OLD);
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Chart the heron roosts");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: Chart the heron roosts");
  const entry = sidebar.getByRole("button", { name: /^Chart the heron roosts/ });
  await expect(entry).toBeVisible();

  // Settings through the header link: the vault stays unlocked (a reload would lock it).
  await page.getByRole("link", { name: "Settings" }).click();
  const security = page.getByTestId("security-section");
  await security.getByRole("button", { name: "Rotate vault key" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate your vault key?" });
  await expect(dialog.getByTestId("rotate-intro")).toContainText("every saved chat is encrypted again");
  await dialog.getByLabel("Passphrase for the new key").fill(NEW);
  await page.screenshot({ path: `${SCREENS}/rotate-intro-desktop.png` });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByTestId("recovery-code")).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByRole("button", { name: "Rotate now" })).toBeDisabled();
  await dialog.getByLabel("I have saved my recovery code somewhere safe.").check();
  await dialog.getByRole("button", { name: "Rotate now" }).click();
  const done = page.getByRole("dialog", { name: "Your vault key was rotated" });
  await expect(done.getByTestId("rotate-done")).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: `${SCREENS}/rotate-done-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/rotate-done-mobile.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await done.getByRole("button", { name: "Done" }).click();

  // After a reload: the old passphrase is refused, the new one opens the chat as it was.
  await page.goto(`${LOCAL}/chat`);
  await unlockWithPassphrase(sidebar, OLD);
  await expect(sidebar.getByRole("alert")).toContainText("That passphrase is not right");
  await unlockWithPassphrase(sidebar, NEW);
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: Chart the heron roosts");
  await expect(page.getByTestId("integrity-warning")).toHaveCount(0);
});
