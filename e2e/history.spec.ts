import { expect, test, type Page } from "@playwright/test";
import { signInByEmail } from "./helpers/auth";

/**
 * A signed-in user's saved history end to end (accounts issue): save chats, see them after a reload,
 * open, delete, then delete the account and meet the Account Deleted screen on signing in again.
 */
const SCREENS = "test-results/screens";
const PASSPHRASE = "zebras cross at dawn";

/** After a reload the vault is locked (its key lived in the tab's memory): unlock with the passphrase. */
async function unlock(page: Page) {
  const sidebar = page.getByRole("complementary", { name: "Chat history" });
  await sidebar.getByLabel("Passphrase").fill(PASSPHRASE);
  await sidebar.getByRole("button", { name: "Unlock", exact: true }).click();
  await expect(sidebar.getByTestId("vault-locked")).toHaveCount(0);
}

test("a user saves chats, finds them after a reload, deletes one, then deletes the account", async ({ page }) => {
  test.slow(); // the vault setup (Argon2id) and two unlocks on top of the whole account journey
  const email = `saver-${Date.now()}@example.com`;
  await signInByEmail(page, email);
  await expect(page).toHaveURL(/\/chat$/);

  // Header for a signed-in Free user (docs/product.md §2).
  await expect(page.getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Get Pro" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveCount(0);

  const sidebar = page.getByRole("complementary", { name: "Chat history" });
  await expect(sidebar).toBeVisible();
  const save = sidebar.getByRole("switch", { name: "Save history" });
  await expect(save).toHaveAttribute("aria-checked", "false");

  // Turning saving on asks first; Cancel leaves it off.
  await save.click();
  await expect(page.getByRole("dialog", { name: "Save chat history?" })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/history-confirm-save-desktop.png` });
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(save).toHaveAttribute("aria-checked", "false");
  // Turning it on sets up the vault (docs/issues.md #8, e2e/vault.spec.ts covers passkeys): a passphrase here.
  await save.click();
  const setup = page.getByRole("dialog", { name: "Save chat history?" });
  await setup.getByRole("button", { name: "Use a passphrase" }).click();
  await setup.getByLabel("Passphrase", { exact: true }).fill(PASSPHRASE);
  await setup.getByLabel("Type it again").fill(PASSPHRASE);
  await setup.getByRole("button", { name: "Continue" }).click();
  await setup.getByLabel("I have saved my recovery code somewhere safe.").check();
  await setup.getByRole("button", { name: "Turn on" }).click();
  // The switch shows on as soon as the vault exists, while the dialog still says "Working…" (the key is being
  // opened); until it closes the page behind it is inert, and text typed there goes nowhere, as for a person.
  await expect(setup).toBeHidden();
  await expect(save).toHaveAttribute("aria-checked", "true");

  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Plan the zebra migration survey");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: Plan the zebra migration survey");
  const entry = sidebar.getByRole("button", { name: /^Plan the zebra migration survey/ });
  await expect(entry).toBeVisible();

  await input.fill("And the budget?");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();

  // A second chat, so the list has an order to check.
  await sidebar.getByRole("button", { name: "New chat" }).click();
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
  await input.fill("Second chat about otters");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();

  await page.reload();
  // The choice is remembered for the account; the chats are locked until unlocked.
  await expect(save).toHaveAttribute("aria-checked", "true");
  await unlock(page);
  const entries = sidebar.getByRole("navigation", { name: "Saved chats" }).getByRole("listitem");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText("Second chat about otters");
  await expect(entries.nth(1)).toContainText("Plan the zebra migration survey");
  await page.screenshot({ path: `${SCREENS}/history-sidebar-desktop.png` });

  // Picking a chat loads its messages.
  await entries.nth(1).getByRole("button").first().click();
  await expect(page.locator('[data-role="user"]')).toHaveCount(2);
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("You asked: And the budget?");

  // Deleting the open chat asks, then clears it.
  await entries.nth(1).hover();
  await entries.nth(1).getByRole("button", { name: /^Delete / }).click();
  await expect(page.getByRole("dialog", { name: "Delete this chat?" })).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
  await expect(entries).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();

  // Phone: the sidebar starts closed, opens as a drawer and closes after a pick.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(sidebar).toBeHidden();
  await page.getByRole("button", { name: "Toggle chat history" }).click();
  await expect(sidebar).toBeVisible();
  await unlock(page);
  await page.screenshot({ path: `${SCREENS}/history-sidebar-mobile.png` });
  await entries.nth(0).getByRole("button").first().click();
  await expect(sidebar).toBeHidden();
  await expect(page.locator('[data-role="user"]')).toContainText("Second chat about otters");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Settings: e-mail, plan, Upgrade; deleting needs the typed word.
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
  await page.screenshot({ path: `${SCREENS}/settings-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/settings-mobile.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole("button", { name: "Delete Account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  const confirm = dialog.getByRole("button", { name: "Delete Account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.screenshot({ path: `${SCREENS}/settings-delete-confirm-desktop.png` });
  await confirm.click();
  // Signed out and reloaded: the visitor header again.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign Up" })).toBeVisible();

  // Signing in again shows the Account Deleted screen; Go back signs out.
  await signInByEmail(page, email);
  await expect(page.getByRole("heading", { name: "Account Deleted" })).toBeVisible();
  await expect(page.getByText("Your account has been deleted")).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/account-deleted-desktop.png` });
  await page.getByRole("button", { name: "Go back" }).click();
  await expect(page.getByRole("heading", { name: "Account Deleted" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign Up" })).toBeVisible();
});

test("a visitor sees Sign up to save chats and is sent from /settings to /", async ({ page }) => {
  await page.goto("/chat");
  const sidebar = page.getByRole("complementary", { name: "Chat history" });
  await expect(sidebar.getByText("Sign up to save chats")).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
  await expect(sidebar.getByRole("link", { name: "Log In" })).toHaveAttribute("href", "/signup");
  await expect(sidebar.getByRole("switch")).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/chat-visitor-sidebar-desktop.png` });
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/$/);
});
