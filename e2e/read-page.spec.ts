import { expect, test, type Page, type Request } from "@playwright/test";
import { E2E_APP_PORT, E2E_CONFIDENTIAL_APP_PORT, E2E_ENCLAVE_PORT, E2E_SEARCH_PORT } from "../playwright.config";
import { signInByEmail } from "./helpers/auth";
import { sidebarOf, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * Reading a page end to end (docs/issues.md #51), against the production build: with "Search the web" on, "read <URL>"
 * for a page of the SearXNG stand-in (dev/searxng.ts DEV_PAGES, allowed by READ_PAGE_ALLOW_HOSTS in
 * playwright.config.ts) makes the fake model call read_page; the answer quotes the page and "Read: host/path" sits
 * under it, a link with no referrer or opener, and says who read it. On the standard path Hush's server reads it; a
 * saved chat keeps the line sealed (reloaded, it is still there); on the confidential path the development enclave
 * reads it, and no request from the page to Hush's origin carries the URL or the page's text in clear.
 */
const APP = `http://127.0.0.1:${E2E_APP_PORT}`;
const CONFIDENTIAL_APP = `http://127.0.0.1:${E2E_CONFIDENTIAL_APP_PORT}`;
const PAGE_PATH = "/pages/kakapo-season-2026";
const PAGE_URL = `http://127.0.0.1:${E2E_SEARCH_PORT}${PAGE_PATH}`;
const SHOWN = `127.0.0.1:${E2E_SEARCH_PORT}${PAGE_PATH}`;
const SHOTS = process.env.E2E_SHOTS_DIR ?? "test-results/shots-read-page";

/** Ask to read the page with the toggle on; returns the answer. */
async function readThePage(page: Page) {
  const toggle = page.getByRole("button", { name: "Search the web" });
  await expect(toggle).toHaveAttribute("title", /also lets the model read pages from the results or links in your message/);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  const input = page.getByPlaceholder(/^Message /);
  await input.fill(`read ${PAGE_URL}`);
  await input.press("Enter");
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("From the page:");
  await expect(answer).toContainText("41 chicks on Whenua Hou");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  return answer;
}

/** The "Read:" line and its link, as every path shows it. */
async function expectReadLine(answer: ReturnType<Page["locator"]>, reader: string | RegExp) {
  const line = answer.getByTestId("read-disclosure");
  await expect(line).toHaveText(typeof reader === "string" ? `Read: ${SHOWN} (${reader})` : reader);
  const link = line.getByRole("link", { name: SHOWN });
  await expect(link).toHaveAttribute("href", PAGE_URL);
  await expect(link).toHaveAttribute("rel", "noreferrer noopener");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("referrerpolicy", "no-referrer");
}

test("standard path: Hush's server reads the page, the answer quotes it, and 'Read: host/path' is shown", async ({ page }) => {
  await page.goto(`${APP}/chat`);
  const answer = await readThePage(page);
  await expectReadLine(answer, "by Hush's server");
  for (const [width, name] of [[1280, "desktop"], [390, "phone"]] as const) {
    await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
    await answer.getByTestId("read-disclosure").scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/read-standard-${name}.png` });
  }
});

test("a saved chat keeps the pages read: reloaded, 'Read: host/path' is still under the answer", async ({ page }) => {
  test.slow(); // the vault setup (Argon2id) and an unlock
  const passphrase = "amber ferries cross the still harbour";
  await signInByEmail(page, `read-page-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, passphrase);
  await readThePage(page);
  const sidebar = sidebarOf(page);
  await expect(sidebar.getByRole("button", { name: /^read http/ }).first()).toBeVisible();

  await page.reload();
  await unlockWithPassphrase(sidebar, passphrase);
  await sidebar.getByRole("navigation", { name: "Saved chats" }).getByRole("listitem").first().getByRole("button").first().click();
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText("41 chicks on Whenua Hou");
  await expectReadLine(answer, "by Hush's server");
});

test("confidential path: the development enclave reads the page, and nothing sent to Hush's origin holds its URL or text", async ({ page }) => {
  const sent: Buffer[] = [];
  const urls: string[] = [];
  page.on("request", (request: Request) => {
    if (!request.url().startsWith(CONFIDENTIAL_APP)) return;
    urls.push(request.url());
    const body = request.postDataBuffer();
    if (body) sent.push(body);
  });
  await page.goto(`${CONFIDENTIAL_APP}/chat`);
  await expect(page.getByTestId("model-privacy-badge")).toHaveText("Verified (development)");
  const answer = await readThePage(page);
  await expectReadLine(answer, `inside the secure enclave at 127.0.0.1:${E2E_ENCLAVE_PORT}`);
  const all = Buffer.concat(sent);
  expect(sent.length).toBeGreaterThan(0);
  for (const secret of ["kakapo-season-2026", PAGE_PATH, "Whenua Hou", "41 chicks", "read http"]) {
    expect(all.includes(Buffer.from(secret)), secret).toBe(false);
    expect(urls.some((u) => u.includes(secret)), secret).toBe(false);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await answer.getByTestId("read-disclosure").scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/read-confidential-phone.png` });
});
