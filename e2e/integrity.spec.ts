import { expect, test } from "@playwright/test";
import { send } from "./helpers/chat";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #21, tamper-evident history, in the browser: a server that drops a message from a saved chat,
 * or a chat from the list, is played by rewriting its responses on their way to the page (Playwright's
 * request routing). The page must show the warning, never the tampered chat as genuine. The database side
 * (reorder, substitute, rollback, two devices) is covered by tests/api/history-integrity.test.ts.
 */
const SCREENS = "test-results/screens";
const PASSPHRASE = "quiet otters audit the lighthouse ledger";


test("a saved chat or list the server changed is shown with an integrity warning", async ({ page }) => {
  test.slow(); // Argon2id at setup and at the unlock after the reload
  await signInOnLocalhost(page, `integrity-${Date.now()}@example.com`);
  const sidebar = sidebarOf(page);
  await turnOnHistoryWithPassphrase(page, PASSPHRASE);
  await send(page, "Count the otters on the pier");
  await send(page, "And the herons?");
  const entry = sidebar.getByRole("button", { name: /^Count the otters on the pier/ });
  await expect(entry).toBeVisible();

  // Untouched, the chat opens with no warning.
  await page.getByRole("button", { name: "New chat" }).first().click();
  await entry.click();
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2);
  await expect(page.getByTestId("integrity-warning")).toHaveCount(0);

  // The server drops the chat's last answer.
  await page.route("**/api/ns/chat_history/*", async (route) => {
    if (route.request().method() !== "GET" || route.request().url().includes("?")) return route.continue();
    const response = await route.fetch();
    const chat = await response.json();
    chat.messages = chat.messages.slice(0, -1);
    await route.fulfill({ response, json: chat });
  });
  await page.getByRole("button", { name: "New chat" }).first().click();
  await entry.click();
  const warning = page.getByTestId("integrity-warning");
  await expect(warning).toContainText("Integrity warning: this chat's messages are not the ones you saved");
  await page.screenshot({ path: `${SCREENS}/integrity-chat-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/integrity-chat-mobile.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.unroute("**/api/ns/chat_history/*");

  // After a reload (the vault locks), the server leaves the first chat out of the list.
  await page.route("**/api/ns/chat_history?*", async (route) => {
    const response = await route.fetch();
    const list = await response.json();
    list.chat_history = list.chat_history.filter((c: { chat_id: string }, i: number, all: unknown[]) => i !== all.length - 1);
    await route.fulfill({ response, json: list });
  });
  await page.goto(`${LOCAL}/chat`);
  await unlockWithPassphrase(sidebar, PASSPHRASE);
  await expect(page.getByTestId("integrity-warning")).toContainText("Integrity warning: 1 saved chat your list records is missing");
  await page.screenshot({ path: `${SCREENS}/integrity-list-desktop.png` });
  await page.unroute("**/api/ns/chat_history?*");

  // The history as stored is whole: after another reload there is no warning.
  await page.goto(`${LOCAL}/chat`);
  await unlockWithPassphrase(sidebar, PASSPHRASE);
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(2);
  await expect(page.getByTestId("integrity-warning")).toHaveCount(0);
});
