import { expect, test, type Page } from "@playwright/test";
import { LOCAL, sidebarOf, signInOnLocalhost } from "./helpers/vault";

/**
 * docs/issues.md #21, "Passphrase strength", in the browser: the vault's setup dialog rates the passphrase as it is
 * typed (zxcvbn-ts, in a worker started on first use), shows a meter with its label and the reason, refuses a guessable
 * passphrase with that reason before anything is stored, suggests six random words, and the wrap it stores
 * carries today's Argon2id parameters (64 MiB, 3 passes). Screenshots, desktop and phone, of a weak and a
 * strong passphrase.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/screens";
test.use({ baseURL: LOCAL, viewport: { width: 1280, height: 800 } });

/** Both viewports' screenshots of the open dialog. */
async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}-desktop.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a weak passphrase is refused with its reason and nothing is stored; a strong or suggested one sets up the vault", async ({ page }) => {
  test.slow(); // sign-in, zxcvbn's dictionaries and Argon2id at 64 MiB on a loaded machine
  await signInOnLocalhost(page, `vault-strength-${Date.now()}@example.com`);
  const sidebar = sidebarOf(page);
  await sidebar.getByRole("switch", { name: "Save history" }).click();
  const dialog = page.getByRole("dialog", { name: "Save chat history?" });
  await dialog.getByRole("button", { name: "Use a passphrase" }).click();

  const field = dialog.getByLabel("Passphrase", { exact: true });
  const meter = dialog.getByRole("meter", { name: "Passphrase strength" });
  const label = dialog.getByTestId("passphrase-strength");
  const reason = dialog.getByTestId("passphrase-reason");
  await expect(reason).toHaveAttribute("aria-live", "polite");
  await expect(reason).toContainText("At least 10 characters");

  // Weak: the meter says so as it is typed, and Continue refuses it with the reason.
  await field.fill("password1234");
  await dialog.getByLabel("Type it again").fill("password1234");
  await expect(label).toHaveText("Weak");
  await expect(meter).toHaveAttribute("aria-valuetext", "Weak");
  await expect(reason).toContainText("This is similar to a commonly used password.");
  await expect(field).toHaveAttribute("aria-describedby", (await reason.getAttribute("id"))!);
  // Rated in the rating worker (lib/browser/vault/strength-client.ts), not on the page's thread.
  const workerNames = await Promise.all(page.workers().map((w) => w.evaluate(() => (self as unknown as { name: string }).name)));
  expect(workerNames).toContain("hush-strength");
  await dialog.getByRole("button", { name: "Continue" }).click();
  const alert = dialog.getByRole("alert");
  await expect(alert).toHaveText("This passphrase is too easy to guess. Add more uncommon words, or use \u201cSuggest one\u201d.");
  await expect(reason).toContainText("Too easy to guess (about 2 seconds for an attacker with the stored copy). This is similar to a commonly used password.");
  await expect(dialog.getByTestId("recovery-code")).toHaveCount(0);
  await shoot(page, "vault-passphrase-weak");
  const before = await (await page.request.get(`${LOCAL}/api/vault`)).json();
  expect(before.exists).toBe(false);

  // Fair (zxcvbn score 3, under 10^10 guesses) is refused too: the stricter rule.
  await field.fill("ILoveYou2024!");
  await expect(label).toHaveText("Fair");
  await dialog.getByLabel("Type it again").fill("ILoveYou2024!");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(alert).toContainText("This passphrase is too easy to guess.");

  // Typing again clears the refusal.
  await field.fill("otters hold hands");
  await expect(alert).toHaveCount(0);

  // Strong: accepted with its reason.
  await field.fill("otters hold hands while sleeping");
  await expect(label).toHaveText(/^(Strong|Very strong)$/);
  await expect(reason).toContainText("Good: guessing it would take an attacker with the stored copy");
  await dialog.getByLabel("Type it again").fill("otters hold hands while sleeping");
  await shoot(page, "vault-passphrase-strong");

  // Suggested: six words of the list, shown to write down, in both fields, rated strong.
  await dialog.getByRole("button", { name: "Suggest one" }).click();
  const suggestion = dialog.getByTestId("passphrase-suggestion");
  await expect(suggestion).toContainText("Write these 6 words down");
  const phrase = await field.inputValue();
  expect(phrase.split(" ")).toHaveLength(6);
  await expect(field).toHaveAttribute("type", "text");
  await expect(dialog.getByLabel("Type it again")).toHaveValue(phrase);
  await expect(label).toHaveText(/^(Strong|Very strong)$/);
  await shoot(page, "vault-passphrase-suggested");

  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByTestId("recovery-code")).toBeVisible({ timeout: 30_000 });
  await dialog.getByLabel("I have saved my recovery code somewhere safe.").check();
  await dialog.getByRole("button", { name: "Turn on" }).click();
  await expect(dialog).toBeHidden();
  const after = await (await page.request.get(`${LOCAL}/api/vault`)).json();
  const method = after.methods.find((m: { kind: string }) => m.kind === "passphrase");
  expect(method.kdf.argon2).toEqual({ memoryKiB: 65536, iterations: 3, parallelism: 4 });

  // Settings → Security → Change passphrase: the same meter and the same refusal; nothing changes.
  await page.getByRole("link", { name: "Settings" }).click();
  const security = page.getByTestId("security-section");
  await expect(security.getByRole("button", { name: "Change passphrase" })).toBeVisible({ timeout: 30_000 });
  await security.getByRole("button", { name: "Change passphrase" }).click();
  // The form opens under the buttons, in view, with the caret in its field (docs/issues.md #56).
  await expect(security.getByLabel("New passphrase", { exact: true })).toBeFocused();
  await expect(security.getByLabel("New passphrase", { exact: true })).toBeInViewport();
  await security.getByLabel("New passphrase", { exact: true }).fill("monkey123456");
  await expect(security.getByTestId("passphrase-strength")).toHaveText("Weak");
  await security.getByRole("button", { name: "Save passphrase" }).click();
  await expect(security.getByRole("alert")).toContainText("Too easy to guess");
  await expect(security.getByRole("alert")).toContainText("This is similar to a commonly used password.");
  const unchanged = await (await page.request.get(`${LOCAL}/api/vault`)).json();
  expect(unchanged.methods.find((m: { kind: string }) => m.kind === "passphrase").id).toBe(method.id);
  await security.getByLabel("New passphrase", { exact: true }).fill("otters hold hands while sleeping");
  await expect(security.getByTestId("passphrase-strength")).toHaveText(/^(Strong|Very strong)$/);
  await security.getByRole("button", { name: "Save passphrase" }).click();
  await expect(security.getByRole("button", { name: "Save passphrase" })).toHaveCount(0, { timeout: 30_000 });
  const changed = await (await page.request.get(`${LOCAL}/api/vault`)).json();
  const passphrases = changed.methods.filter((m: { kind: string }) => m.kind === "passphrase");
  expect(passphrases).toHaveLength(1);
  expect(passphrases[0].id).not.toBe(method.id);
  expect(passphrases[0].kdf.argon2).toEqual({ memoryKiB: 65536, iterations: 3, parallelism: 4 });
});
