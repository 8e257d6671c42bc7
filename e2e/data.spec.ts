import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Download, type Locator, type Page } from "@playwright/test";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #9 history tools on saved (vault) chats, end to end: a regenerated answer in a saved chat is
 * stored with its versions and comes back "2 / 2" after a reload; the open chat exports as Markdown from
 * the chat header's menu; Settings → Your data exports every chat and imports a ChatGPT export
 * (tests/fixtures/chatgpt-conversations.json), whose chats then open from the sidebar. Pages run on
 * localhost (WebAuthn and the vault need a secure context; see e2e/vault.spec.ts). The export menu and
 * the Settings section are screenshot (to SHOTS) and checked by axe in both themes at 1280×800 and 390×844.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/screens";
const PASSPHRASE = "kiwis regenerate their answers";
const FIXTURE = path.join(__dirname, "../tests/fixtures/chatgpt-conversations.json");
test.use({ baseURL: LOCAL });

const assistant = (page: Page) => page.locator('[data-role="assistant"]');

async function signIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: LOCAL, viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  await signInOnLocalhost(page, email);
  return page;
}

const turnOnHistory = (page: Page) => turnOnHistoryWithPassphrase(page, PASSPHRASE);
const unlockIn = (scope: Locator) => unlockWithPassphrase(scope, PASSPHRASE);

async function downloaded(download: Download): Promise<string> {
  return readFileSync((await download.path())!, "utf8");
}

/** Scroll so `el` starts just below the sticky site header. */
async function showTop(el: ReturnType<Page["locator"]>) {
  await el.evaluate((node) => window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY - 80));
}

async function shoot(page: Page, name: string, open: () => Promise<void>) {
  // Toasts are checked where they appear; the screenshots show the screen without them. The pointer leaves the
  // page's corner first: a toast under it is paused (sonner) and would never go.
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  for (const theme of ["light", "dark"] as const) {
    for (const size of [
      { name: "desktop", width: 1280, height: 800 },
      { name: "mobile", width: 390, height: 844 },
    ]) {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: size.width, height: size.height });
      await open();
      await page.screenshot({ path: `${SHOTS}/${name}-${size.name}-${theme}.png` });
      const axe = await new AxeBuilder({ page }).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), `axe on ${name} (${size.name}, ${theme})`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a saved chat keeps its regenerated answers, exports as Markdown, and a ChatGPT export imports into the sidebar", async ({ browser }) => {
  test.slow(); // sign-in, Argon2id several times, a build under load
  const page = await signIn(browser, `data-${Date.now()}@example.com`);
  await turnOnHistory(page);
  const sidebar = sidebarOf(page);

  // A saved chat, then a regenerated answer (saved with its versions).
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Kiwi versions question");
  await input.press("Enter");
  await expect(assistant(page).last()).toContainText("You asked: Kiwi versions question");
  const entry = sidebar.getByRole("button", { name: /^Kiwi versions question/ });
  await expect(entry).toBeVisible();
  await assistant(page).last().getByRole("button", { name: "Regenerate answer" }).click();
  await expect(page.getByTestId("version-switcher")).toContainText("2 / 2");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.getByText(/This answer was not saved/)).toHaveCount(0);

  // Reload: the vault locks; unlocked, the saved chat opens with both versions switchable.
  await page.reload();
  await unlockIn(sidebar);
  await sidebar.getByRole("button", { name: /^Kiwi versions question/ }).click();
  await expect(assistant(page)).toHaveCount(1);
  const switcher = page.getByTestId("version-switcher");
  await expect(switcher).toContainText("2 / 2");
  await page.getByRole("button", { name: "Previous answer" }).click();
  await expect(switcher).toContainText("1 / 2");
  await expect(assistant(page).last()).toContainText("You asked: Kiwi versions question");
  await page.getByRole("button", { name: "Next answer" }).click();
  await expect(switcher).toContainText("2 / 2");

  // Export this chat as Markdown from the header's menu (written in the browser).
  const menuButton = page.getByRole("button", { name: "Chat options" });
  await menuButton.click();
  const menu = page.getByRole("menu", { name: "Chat options" });
  // A saved chat's menu opens on its first item, "Share…" (docs/issues.md #23); the exports follow.
  await expect(menu.getByRole("menuitem", { name: "Share…" })).toBeFocused();
  const mdDownload = page.waitForEvent("download");
  await menu.getByRole("menuitem", { name: "Export as Markdown" }).click();
  const md = await mdDownload;
  expect(md.suggestedFilename()).toMatch(/^hush-kiwi-versions-question-\d{4}-\d{2}-\d{2}\.md$/);
  const mdText = await downloaded(md);
  expect(mdText).toContain("# Kiwi versions question");
  expect(mdText).toContain("## You\n\nKiwi versions question");
  expect(mdText).toMatch(/## Hush \(version 2 of 2\)\n\nYou asked: Kiwi versions question/);
  await expect(page.getByText("Exported this chat as Markdown")).toBeVisible();
  // Keyboard: Escape closes the menu and gives focus back.
  await menuButton.press("Enter");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await shoot(page, "chat-export-menu", async () => {
    if (!(await menu.isVisible())) await menuButton.click();
    await expect(menu).toBeVisible();
  });
  await page.keyboard.press("Escape");

  // A follow-up, then the first question edited: the stored path is replaced from position 0, the old
  // branch kept in the sealed tree.
  const user = page.locator('[data-role="user"]');
  await input.fill("Kiwi follow-up");
  await input.press("Enter");
  await expect(assistant(page).last()).toContainText("You asked: Kiwi follow-up");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await user.first().getByRole("button", { name: "Edit message" }).click();
  const editor = page.getByRole("textbox", { name: "Edit message" });
  await editor.fill("Kiwi edited question");
  await editor.press("Enter");
  await expect(assistant(page).last()).toContainText("You asked: Kiwi edited question");
  await expect(user.first().getByTestId("version-switcher")).toContainText("2 / 2");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await expect(page.getByText(/This answer was not saved/)).toHaveCount(0);

  // Settings → Your data: locked after the page load, then unlocked above (Security).
  await page.goto("/settings");
  const data = page.getByTestId("data-section");
  await expect(data.getByTestId("data-locked")).toBeVisible();
  await shoot(page, "settings-data-locked", async () => {
    await showTop(data);
  });
  await unlockIn(page.getByTestId("security-section"));
  await expect(data.getByRole("button", { name: "Export as JSON" })).toBeVisible();

  // A memory (docs/issues.md #41) goes with the export of every chat.
  const memory = page.getByTestId("memory-section");
  await memory.getByLabel("New memory").fill("I keep kiwis as pets");
  await memory.getByRole("button", { name: "Add memory" }).click();
  await expect(memory.getByRole("list", { name: "Memories" })).toContainText("I keep kiwis as pets");

  // Export every chat as JSON: the whole tree is in it, and the memory.
  const jsonDownload = page.waitForEvent("download");
  await data.getByRole("button", { name: "Export as JSON" }).click();
  const json = JSON.parse(await downloaded(await jsonDownload)) as { format: string; version: number; chats: { title: string; tree: unknown }[]; memories: { text: string }[] };
  expect(json.memories.map((m) => m.text)).toEqual(["I keep kiwis as pets"]);
  expect(json.format).toBe("hush-chats");
  expect(json.version).toBe(1);
  expect(json.chats).toHaveLength(1);
  expect(json.chats[0]!.title).toBe("Kiwi versions question");
  expect(json.chats[0]!.tree).not.toBeNull();
  await expect(page.getByText("Exported 1 chat and 1 memory as JSON")).toBeVisible();

  // A wrong file is refused plainly.
  await data.locator("#import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"notes": []}') });
  await expect(data.getByRole("alert")).toContainText("This is not a ChatGPT export.");

  // Import the ChatGPT export: preview, then every chat sealed here and saved.
  await data.locator("#import-file").setInputFiles(FIXTURE);
  const preview = data.getByTestId("import-preview");
  await expect(preview).toContainText("3 conversations to import from chatgpt-conversations.json (1 empty one left out).");
  await shoot(page, "settings-data-import-preview", async () => {
    await showTop(data.getByRole("heading", { name: "Import from ChatGPT" }));
  });
  await preview.getByRole("button", { name: "Import 3 chats" }).click();
  await expect(page.getByText("Imported 3 chats from ChatGPT")).toBeVisible();
  await shoot(page, "settings-data-unlocked", async () => {
    await showTop(data);
  });

  // The imported chats are in the sidebar (at their original dates, below today's chat) and open.
  await page.goto("/chat");
  await unlockIn(sidebar);
  await expect(sidebar.getByRole("button", { name: /^Kiwi versions question/ })).toBeVisible();
  for (const title of ["Plan a weekend in Lisbon", "Sourdough starter help", "Read this receipt"]) {
    await expect(sidebar.getByRole("button", { name: new RegExp(`^${title}`) })).toBeVisible();
  }
  // The edited chat reopens on the edited branch; the original branch, with its two answers, is one click away.
  await sidebar.getByRole("button", { name: /^Kiwi versions question/ }).click();
  await expect(user.first()).toContainText("Kiwi edited question");
  await expect(user.first().getByTestId("version-switcher")).toContainText("2 / 2");
  // The switch is saved too (once clicking settles), so the chat reopens on the version shown.
  const switchSaved = page.waitForResponse((r) => r.url().endsWith("/api/ns/chat_save") && r.request().method() === "POST");
  await user.first().getByRole("button", { name: "Previous version of this message" }).click();
  await expect(user).toHaveCount(2);
  expect((await switchSaved).status()).toBe(200);
  await expect(user.first()).toContainText("Kiwi versions question");
  await expect(assistant(page).last()).toContainText("You asked: Kiwi follow-up");
  await expect(assistant(page).first().getByTestId("version-switcher")).toContainText("2 / 2");

  await sidebar.getByRole("button", { name: /^Sourdough starter help/ }).click();
  await expect(page.locator('[data-role="user"]').first()).toContainText("My rye starter smells like acetone after 3 days. What now?");
  await expect(assistant(page).last()).toContainText("Higher hydration gives a more open crumb");
  await expect(assistant(page)).toHaveCount(2);

  await page.reload();
  await unlockIn(sidebar);
  await sidebar.getByRole("button", { name: /^Kiwi versions question/ }).click();
  await expect(user).toHaveCount(2);
  await expect(user.first()).toContainText("Kiwi versions question");
  await expect(user.first().getByTestId("version-switcher")).toContainText("1 / 2");
  await page.context().close();
});
