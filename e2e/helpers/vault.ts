import { expect, type Locator, type Page } from "@playwright/test";
import { signInLinkFor } from "./auth";

/**
 * Helpers for specs that use saved history (the vault, docs/issues.md #8). WebAuthn and the vault's Web Crypto
 * need a secure context, so these pages run on `localhost` (APP_URL stays 127.0.0.1 for the e-mail link;
 * the session cookie is carried over).
 */
export const PORT = Number(process.env.E2E_APP_PORT ?? 3100);
export const LOCAL = `http://localhost:${PORT}`;

/** The chat history sidebar (or drawer on a phone). */
export const sidebarOf = (page: Page): Locator => page.getByRole("complementary", { name: "Chat history" });

/** Sign `page` in by e-mail link (at APP_URL), then carry the session cookie to localhost and open /chat. */
export async function signInOnLocalhost(page: Page, email: string): Promise<void> {
  const context = page.context();
  await page.goto(`http://127.0.0.1:${PORT}/signup`);
  const since = Date.now() - 1000;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByTestId("auth-notice")).toContainText(email);
  await page.goto(await signInLinkFor(email, since));
  await page.waitForURL("**/chat");
  const session = (await context.cookies(`http://127.0.0.1:${PORT}`)).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toBeTruthy();
  await context.addCookies([{ name: session!.name, value: session!.value, url: LOCAL, httpOnly: true, sameSite: "Lax" }]);
  await page.goto(`${LOCAL}/chat`);
}

/**
 * Turn Save history on with a passphrase, through the spec's "Save chat history?" dialog, as a person does;
 * `remember` ticks "Remember this device" (docs/issues.md #21), which starts unticked.
 */
export async function turnOnHistoryWithPassphrase(page: Page, passphrase: string, options: { remember?: boolean; screenshot?: string } = {}): Promise<void> {
  const sidebar = sidebarOf(page);
  await sidebar.getByRole("switch", { name: "Save history" }).click();
  const dialog = page.getByRole("dialog", { name: "Save chat history?" });
  await dialog.getByRole("button", { name: "Use a passphrase" }).click();
  await dialog.getByLabel("Passphrase", { exact: true }).fill(passphrase);
  await dialog.getByLabel("Type it again").fill(passphrase);
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByTestId("recovery-code")).toBeVisible();
  await expect(dialog.getByLabel("Remember this device")).not.toBeChecked();
  if (options.remember) await dialog.getByLabel("Remember this device").check();
  await dialog.getByLabel("I have saved my recovery code somewhere safe.").check();
  if (options.screenshot) await page.screenshot({ path: options.screenshot });
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog).toBeHidden();
  await expect(sidebar.getByRole("switch", { name: "Save history" })).toHaveAttribute("aria-checked", "true");
}

/** Unlock the vault with its passphrase in `scope` (the sidebar, or Settings' security section). */
export async function unlockWithPassphrase(scope: Locator, passphrase: string): Promise<void> {
  await scope.getByLabel("Passphrase").fill(passphrase);
  await scope.getByRole("button", { name: "Unlock", exact: true }).click();
}
