import { expect, type Page } from "@playwright/test";

/**
 * Send `text` from the chat input and wait for the fake model's answer (`You asked: <text>`, tests/helpers/fake-llm-server.ts)
 * to be the last assistant message and for the send button to be back.
 */
export async function send(page: Page, text: string) {
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(text);
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText(`You asked: ${text}`);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
}

/**
 * On a /chat opened again in a used tab, which brings the visitor's conversation back (docs/issues.md #56):
 * wait for it to be on screen (a click before would be undone by it), then start a new chat the way a user
 * does, with the "New chat" button in view (the sidebar's on a wide screen, the chat header's on a phone).
 */
export async function newChat(page: Page) {
  await expect(page.locator('[data-role="user"]').first()).toBeVisible();
  await page.getByRole("button", { name: "New chat", exact: true }).click();
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
}
