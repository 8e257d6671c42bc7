import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { signInByEmail } from "./helpers/auth";

/**
 * docs/issues.md #9 "Look and keyboard" and friends: dark mode (system default, switch in the header, no flash,
 * axe clean in both themes), toasts, keyboard shortcuts and their dialog, New chat in the chat header on
 * phones, the development responder's Markdown, the per-month equivalent on /pricing. Every check runs
 * at 1280×800 and 390×844 where it concerns layout; screenshots go to E2E_LOOK_SCREENS.
 */
const SCREENS = process.env.E2E_LOOK_SCREENS ?? "test-results/screens/look";
fs.mkdirSync(SCREENS, { recursive: true });

const THEMES = ["light", "dark"] as const;
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

async function contextFor(browser: Browser, theme: (typeof THEMES)[number], size: (typeof SIZES)[number]): Promise<BrowserContext> {
  return browser.newContext({ colorScheme: theme, viewport: { width: size.width, height: size.height } });
}

/** The page's background colour as [r, g, b] (canvas turns lab()/oklch() into RGB). */
function backgroundRgb(page: Page, selector = "body"): Promise<number[]> {
  return page.locator(selector).first().evaluate((el) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
  });
}
const isDark = (rgb: number[]) => Math.max(...rgb) < 60;

test("the theme follows the system by default, with no flash of the other theme before hydration", async ({ browser }) => {
  for (const theme of THEMES) {
    const context = await browser.newContext({ colorScheme: theme, javaScriptEnabled: true });
    const page = await context.newPage();
    // Record <html>'s class the moment the first page content (the skip link or header) is parsed,
    // before anything can be painted and before any bundle has run: only the inline theme script,
    // first in <body>, can have set it.
    await page.addInitScript(() => {
      const seen: { cls: string; bundles: boolean }[] = [];
      (window as unknown as { __first: typeof seen }).__first = seen;
      new MutationObserver((_, obs) => {
        if (!document.querySelector("body a, body header, body main")) return;
        seen.push({ cls: document.documentElement.className, bundles: "__next_f" in window && "next" in window });
        obs.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto("/");
    const first = await page.evaluate(() => (window as unknown as { __first: { cls: string; bundles: boolean }[] }).__first[0]);
    expect(first?.bundles).toBe(false);
    expect(first?.cls, `html class at first paint (${theme})`).toMatch(new RegExp(`\\b${theme}\\b`));
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe(theme);
    expect(isDark(await backgroundRgb(page))).toBe(theme === "dark");
    await context.close();
  }
});

test("the header's switch chooses light, dark or system on every page, and the choice is remembered", async ({ browser }) => {
  for (const size of SIZES) {
    const context = await contextFor(browser, "light", size);
    const page = await context.newPage();
    await page.goto("/pricing");
    const group = page.getByRole("banner").getByRole("group", { name: "Colour theme" });
    await expect(group.getByRole("button", { name: "System theme" })).toHaveAttribute("aria-pressed", "true");
    await group.getByRole("button", { name: "Dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    expect(isDark(await backgroundRgb(page))).toBe(true);
    // Remembered across pages and loads, before hydration (no flash).
    for (const path of ["/", "/chat", "/signup", "/termsofservice", "/contact", "/settings"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      await expect(page.getByRole("banner").getByRole("button", { name: "Dark theme" })).toHaveAttribute("aria-pressed", "true");
    }
    await page.getByRole("banner").getByRole("button", { name: "Light theme" }).click();
    await expect(page.locator("html")).toHaveClass(/\blight\b/);
    expect(isDark(await backgroundRgb(page))).toBe(false);
    await page.getByRole("banner").getByRole("button", { name: "System theme" }).click();
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await context.close();
  }
});

test("axe finds no violations on /, /pricing, /chat and /settings in both themes and sizes", async ({ browser }) => {
  test.setTimeout(240_000);
  for (const theme of THEMES) {
    for (const size of SIZES) {
      const context = await contextFor(browser, theme, size);
      const page = await context.newPage();
      for (const path of ["/", "/pricing", "/chat", "/signup?reason=limit"]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
        await expectNoAxeViolations(page, `${path} (${theme}, ${size.name})`);
        const name = path === "/" ? "home" : path.slice(1).replace(/[?=]/g, "-");
        await page.screenshot({ path: `${SCREENS}/${name}-${theme}-${size.name}.png`, fullPage: path !== "/" });
      }
      await signInByEmail(page, unique(`axe-${theme}-${size.name}`));
      for (const path of ["/chat", "/settings"]) {
        await page.goto(path);
        await expectNoAxeViolations(page, `${path} signed in (${theme}, ${size.name})`);
        await page.screenshot({ path: `${SCREENS}/${path.slice(1)}-signed-in-${theme}-${size.name}.png` });
      }
      await context.close();
    }
  }
});

test("a chat with an answer passes axe in both themes and sizes", async ({ browser }) => {
  // The e2e server talks to the fake LLM; the development responder's Markdown is unit-tested
  // (tests/unit/llm-development.test.ts).
  for (const theme of THEMES) {
    for (const size of SIZES) {
      const context = await contextFor(browser, theme, size);
      const page = await context.newPage();
      await page.goto("/chat");
      await page.getByPlaceholder("Message GPT").fill("Show me markdown: heading, list, code and table");
      await page.getByRole("button", { name: "Send message" }).click();
      await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
      await expectNoAxeViolations(page, `/chat with an answer (${theme}, ${size.name})`);
      await page.screenshot({ path: `${SCREENS}/chat-answer-${theme}-${size.name}.png` });
      await context.close();
    }
  }
});

test("keyboard shortcuts: the dialog lists them; new chat, focus input, sidebar, search, copy last answer", async ({ browser }) => {
  for (const theme of THEMES) {
    const context = await contextFor(browser, theme, SIZES[0]);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await page.goto("/chat");
    const input = page.getByPlaceholder("Message GPT");
    await expect(input).toBeVisible();

    // Ctrl+/ opens the list.
    await page.locator("body").click();
    await page.keyboard.press("Control+Slash");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(dialog).toBeVisible();
    for (const label of ["New chat", "Focus the message input", "Stop generating", "Show or hide the chat history", "Search chats", "Copy the last answer"]) {
      await expect(dialog.getByText(label, { exact: false }).first()).toBeVisible();
    }
    await expect(dialog.getByText("Ctrl").first()).toBeVisible();
    await expectNoAxeViolations(page, `shortcuts dialog (${theme})`);
    await page.screenshot({ path: `${SCREENS}/shortcuts-dialog-${theme}-desktop.png` });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    // Shift+Esc focuses the input.
    await page.locator("body").click();
    await page.keyboard.press("Shift+Escape");
    await expect(input).toBeFocused();

    // Copy last answer with nothing yet says so; after an answer it copies it (and a toast confirms).
    await page.keyboard.press("Control+Shift+KeyC");
    await expect(page.getByText("No answer to copy yet")).toBeVisible();
    await input.fill("Hello for the clipboard");
    await input.press("Enter");
    await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
    await expect(page.getByText("You asked: Hello for the clipboard.")).toBeVisible();
    await page.keyboard.press("Control+Shift+KeyC");
    await expect(page.getByText("Copied the last answer")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("You asked: Hello for the clipboard.");
    await page.screenshot({ path: `${SCREENS}/toast-copied-${theme}-desktop.png` });

    // Ctrl+Shift+S hides and shows the history; Ctrl+K opens it and focuses its first entry.
    const history = page.getByRole("complementary", { name: "Chat history" });
    await expect(history).toBeVisible();
    await page.keyboard.press("Control+Shift+KeyS");
    await expect(history).toBeHidden();
    await page.keyboard.press("Control+Shift+KeyS");
    await expect(history).toBeVisible();
    await page.keyboard.press("Control+Shift+KeyS");
    await expect(history).toBeHidden();
    await page.keyboard.press("Control+KeyK");
    await expect(history).toBeVisible();
    await expect(history.getByRole("link", { name: "Sign Up" })).toBeFocused();

    // Ctrl+Shift+O starts a new chat.
    await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
    await page.keyboard.press("Control+Shift+KeyO");
    await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
    await context.close();
  }
});

test("Escape stops a streaming answer", async ({ page }) => {
  await page.goto("/chat");
  const input = page.getByPlaceholder("Message GPT");
  // The fake LLM streams slowly for this prompt (tests/helpers/fake-llm-server.ts).
  await input.fill("A long answer please [[fake:slow]]");
  await input.press("Enter");
  await expect(page.getByRole("button", { name: "Stop generating" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
});

test("phone: New chat is in the chat header, and the drawer closes after New chat", async ({ browser }) => {
  for (const theme of THEMES) {
    const context = await contextFor(browser, theme, SIZES[1]);
    const page = await context.newPage();
    await page.goto("/chat");
    const input = page.getByPlaceholder("Message GPT");
    await input.fill("First phone message");
    await input.press("Enter");
    await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/chat-header-new-chat-${theme}-phone.png` });

    // In the header.
    const main = page.locator("main");
    await main.getByRole("button", { name: "New chat" }).first().click();
    await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();

    // From the drawer: it closes.
    await input.fill("Second phone message");
    await input.press("Enter");
    await expect(page.getByRole("list", { name: "Messages" })).toBeVisible();
    await page.getByRole("button", { name: "Toggle chat history" }).click();
    const drawer = page.getByRole("complementary", { name: "Chat history" });
    await expect(drawer).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/chat-drawer-${theme}-phone.png` });
    await drawer.getByRole("button", { name: "New chat" }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
    await context.close();
  }
});

test("/pricing shows the per-month equivalent of the chosen duration beside its total", async ({ browser }) => {
  for (const theme of THEMES) {
    for (const size of SIZES) {
      const context = await contextFor(browser, theme, size);
      const page = await context.newPage();
      await page.goto("/pricing");
      const card = page.getByTestId("pro-card");
      await expect(card.getByTestId("launch-price")).toHaveText("5.00");
      await expect(card.getByTestId("per-month")).toHaveCount(0);
      await page.getByText("3 months", { exact: true }).click();
      await expect(card.getByTestId("launch-price")).toHaveText("75.00");
      await expect(card.getByTestId("per-month")).toHaveText(
        "That is 25.00 USD a month, more than the 1-month plan (5.00 USD a month).",
      );
      await page.getByText("14 months", { exact: true }).click();
      await expect(card.getByTestId("per-month")).toContainText("That is 21.43 USD a month");
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/pricing-per-month-${theme}-${size.name}.png` });
      await context.close();
    }
  }
});

/** The computed colour of `prop` as [r, g, b] (canvas turns lab()/oklch() into RGB). */
function colourRgb(page: Page, selector: string, prop: "color" | "backgroundColor"): Promise<number[]> {
  return page.locator(selector).first().evaluate((el, p) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el)[p];
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
  }, prop);
}
/** WCAG contrast ratio of two sRGB colours. */
function contrast(a: number[], b: number[]): number {
  const lum = (c: number[]) => {
    const [r = 0, g = 0, bl = 0] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [la, lb] = [lum(a), lum(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

test("the disabled Send button looks disabled in both themes; the enabled one keeps AA contrast", async ({ browser }) => {
  for (const theme of THEMES) {
    for (const size of SIZES) {
      const context = await contextFor(browser, theme, size);
      const page = await context.newPage();
      await page.goto("/chat");
      const send = page.getByRole("button", { name: "Send message" });
      await expect(send).toBeDisabled();
      const sel = 'button[aria-label="Send message"]';
      const off = { fg: await colourRgb(page, sel, "color"), bg: await colourRgb(page, sel, "backgroundColor") };
      await page.screenshot({ path: `${SCREENS}/send-disabled-${theme}-${size.name}.png` });
      await page.getByPlaceholder("Message GPT").fill("Hello");
      await expect(send).toBeEnabled();
      const on = { fg: await colourRgb(page, sel, "color"), bg: await colourRgb(page, sel, "backgroundColor") };
      await page.screenshot({ path: `${SCREENS}/send-enabled-${theme}-${size.name}.png` });
      expect(contrast(on.fg, on.bg), `enabled Send contrast (${theme})`).toBeGreaterThanOrEqual(4.5);
      // Disabled: a muted icon (not the enabled white) on a quieter fill than the enabled brand colour.
      expect(off.fg, `disabled Send icon (${theme})`).not.toEqual(on.fg);
      expect(contrast(off.fg, off.bg), `disabled Send icon is muted (${theme})`).toBeLessThan(contrast(on.fg, on.bg));
      expect(Math.max(...off.fg), `disabled Send icon is not white (${theme})`).toBeLessThan(200);
      await context.close();
    }
  }
});
