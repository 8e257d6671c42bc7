import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { newChat } from "./helpers/chat";

/**
 * Everyday message actions on /chat (docs/issues.md #9 "Messages" and Retry): copy, regenerate with versions,
 * edit-and-resend with branches, code blocks, KaTeX math served from our origin, the stopped-answer stub,
 * scroll-to-bottom, input focus, and Retry after a provider failure. The fake OpenAI-compatible server
 * answers "You asked: <question>." (Markdown in the question comes back as Markdown) and its trigger
 * words cause failures (tests/helpers/fake-llm-server.ts). Each test runs at 1280×800 and 390×844.
 */
const SCREENS = "test-results/screens";
const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, touch: false },
  { name: "phone", viewport: { width: 390, height: 844 }, touch: true },
] as const;

/** Open /chat in this test's tab; after the first time it brings the tab's conversation back, so New chat. */
async function openChat(page: Page, again = false) {
  await page.goto("/chat");
  if (again) await newChat(page);
  await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
}

async function ask(page: Page, text: string) {
  const input = page.getByPlaceholder("Message GPT");
  await input.fill(text);
  await input.press("Enter");
}

const assistant = (page: Page) => page.locator('[data-role="assistant"]');
const user = (page: Page) => page.locator('[data-role="user"]');

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });

    test(`copy a message and an answer (${size.name})`, async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await openChat(page);
      await ask(page, "Copy this please");
      await expect(assistant(page).last()).toContainText("You asked: Copy this please.");
      await assistant(page).last().getByRole("button", { name: "Copy answer" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("You asked: Copy this please.");
      await user(page).last().getByRole("button", { name: "Copy message" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Copy this please");
      await page.screenshot({ path: `${SCREENS}/chat-actions-${size.name}.png` });
    });

    test(`regenerate keeps the earlier answer, switchable 1 / 2 and 2 / 2 (${size.name})`, async ({ page }) => {
      await openChat(page);
      await ask(page, "First question");
      await expect(assistant(page).last()).toContainText("You asked: First question.");
      await assistant(page).last().getByRole("button", { name: "Regenerate answer" }).click();
      await expect(page.getByTestId("version-switcher")).toContainText("2 / 2");
      await expect(assistant(page)).toHaveCount(1);
      await page.getByRole("button", { name: "Previous answer" }).click();
      await expect(page.getByTestId("version-switcher")).toContainText("1 / 2");
      await expect(assistant(page).last()).toContainText("You asked: First question.");
      await page.getByRole("button", { name: "Next answer" }).click();
      await expect(page.getByTestId("version-switcher")).toContainText("2 / 2");
      await page.screenshot({ path: `${SCREENS}/chat-regenerate-${size.name}.png` });
    });

    test(`edit-and-resend continues from the edited message; the old branch stays (${size.name})`, async ({ page }) => {
      await openChat(page);
      await ask(page, "Alpha");
      await expect(assistant(page).last()).toContainText("You asked: Alpha.");
      await ask(page, "Beta");
      await expect(assistant(page).last()).toContainText("You asked: Beta.");
      await user(page).first().getByRole("button", { name: "Edit message" }).click();
      const editor = page.getByRole("textbox", { name: "Edit message" });
      await expect(editor).toBeFocused();
      await page.screenshot({ path: `${SCREENS}/chat-edit-${size.name}.png` });
      await editor.fill("Gamma");
      await editor.press("Enter");
      await expect(assistant(page).last()).toContainText("You asked: Gamma.");
      await expect(user(page)).toHaveCount(1);
      await expect(user(page).first().getByTestId("version-switcher")).toContainText("2 / 2");
      await user(page).first().getByRole("button", { name: "Previous version of this message" }).click();
      await expect(user(page)).toHaveCount(2);
      await expect(assistant(page).last()).toContainText("You asked: Beta.");
      await expect(user(page).first()).toContainText("Alpha");
      await page.screenshot({ path: `${SCREENS}/chat-branch-${size.name}.png` });
    });

    test(`code blocks have a label and copy; math is KaTeX from our origin; quotes get no added marks (${size.name})`, async ({ page, context, baseURL }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const origin = new URL(baseURL!).origin;
      const requested: string[] = [];
      page.on("request", (r) => requested.push(r.url()));
      await openChat(page);
      await ask(page, "Show me\n\n```python\nprint('hi')\n```\n\n$$\nE = mc^2\n$$\n\nInline $a^2 + b^2$ too.\n\n> A quoted line");
      const answer = assistant(page).last();
      await expect(answer.getByTestId("code-language")).toHaveText("python");
      await expect(answer.locator(".hljs-built_in, .hljs-string").first()).toBeVisible();
      await answer.getByRole("button", { name: "Copy code" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("print('hi')");
      await expect(answer.locator(".katex-display .katex")).toBeVisible();
      // The KaTeX font is loaded (from our origin) and used.
      await page.waitForFunction(() => document.fonts.check("16px KaTeX_Main"));
      const quote = answer.locator("blockquote p");
      expect(await quote.evaluate((p) => getComputedStyle(p, "::before").content)).toMatch(/^(none|normal)$/);
      await page.waitForLoadState("networkidle");
      expect(requested.some((u) => /KaTeX_.*\.woff2/.test(u)), "KaTeX fonts are fetched").toBe(true);
      expect(requested.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin)).toEqual([]);
      await page.screenshot({ path: `${SCREENS}/chat-markdown-${size.name}.png` });
    });

    test(`Stop before the first words leaves a stopped stub that can regenerate (${size.name})`, async ({ page }) => {
      await openChat(page);
      await ask(page, "Wait for it [[fake:hang]]");
      await expect(page.getByRole("status", { name: "Assistant is typing" })).toBeVisible();
      await page.getByRole("button", { name: "Stop generating" }).click();
      await expect(page.getByTestId("stopped-note")).toHaveText("Stopped before the answer began.");
      await page.screenshot({ path: `${SCREENS}/chat-stopped-${size.name}.png` });
      await expect(assistant(page).last().getByRole("button", { name: "Regenerate answer" })).toBeVisible();
    });

    test(`a scroll-to-bottom button appears when scrolled up, and the input has focus on desktop (${size.name})`, async ({ page }) => {
      await openChat(page);
      const input = page.getByPlaceholder("Message GPT");
      if (size.touch) await expect(input).not.toBeFocused();
      else await expect(input).toBeFocused();
      const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1}`).join("\n\n");
      await ask(page, long);
      await expect(assistant(page).last()).toContainText("Line 40");
      const scroller = page.getByTestId("message-scroller");
      const button = page.getByRole("button", { name: "Scroll to the newest message" });
      await expect(button).toHaveCount(0);
      // The reader scrolls up (a wheel turn, then the scroll it causes).
      await scroller.evaluate((el) => {
        el.dispatchEvent(new WheelEvent("wheel", { deltaY: -500, bubbles: true }));
        el.scrollTo({ top: 0 });
      });
      await expect(button).toBeVisible();
      await page.screenshot({ path: `${SCREENS}/chat-scroll-button-${size.name}.png` });
      await button.click();
      await expect(button).toHaveCount(0);
      expect(await scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(80);
    });

    test(`Retry after a provider failure resends the same message; nothing typed is lost (${size.name})`, async ({ page }) => {
      await openChat(page);
      const input = page.getByPlaceholder("Message GPT");
      await ask(page, "Will this fail? [[fake:500]]");
      const error = page.getByTestId("chat-error");
      await expect(error).toContainText("You've reached your usage limit. Upgrade to get priority access.");
      await expect(error.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
      await expect(page.getByTestId("chat-error-detail")).toHaveText("The model did not answer: the model service failed. This is not a limit on your account.");
      await expect(input).toHaveValue("Will this fail? [[fake:500]]");
      await page.screenshot({ path: `${SCREENS}/chat-retry-${size.name}.png` });
      await error.getByRole("button", { name: "Retry" }).click();
      // The same message goes again (and fails again the same way, since the trigger is in it).
      await expect(page.getByTestId("chat-error-detail")).toHaveText("The model did not answer: the model service failed. This is not a limit on your account.");
      await expect(input).toHaveValue("Will this fail? [[fake:500]]");

      await input.fill("Cut me off [[fake:cut]]");
      await page.getByTestId("file-input").setInputFiles("tests/fixtures/e2e-report.pdf");
      await input.press("Enter");
      await expect(page.getByTestId("chat-error-detail")).toHaveText("The connection to the model service dropped before the answer finished. This is not a limit on your account.");
      await expect(input).toHaveValue("Cut me off [[fake:cut]]");
      await expect(page.getByTestId("staged-file")).toContainText("e2e-report.pdf");
    });
  });
}

test("axe finds no violations on /chat with the message actions, versions, code and an error", async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await openChat(page, size !== SIZES[0]);
    await ask(page, "Code\n\n```js\nconst a = 1;\n```\n\n$$x^2$$\n\n> quoted");
    await expect(assistant(page).last().getByTestId("code-language")).toHaveText("js");
    await assistant(page).last().getByRole("button", { name: "Regenerate answer" }).click();
    await expect(page.getByTestId("version-switcher")).toContainText("2 / 2");
    await ask(page, "Fail [[fake:500]]");
    await expect(page.getByTestId("chat-error-detail")).toBeVisible();
    await assistant(page).last().hover();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }))).toEqual([]);
  }
});
