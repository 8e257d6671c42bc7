import { expect, test, type Locator, type Page } from "@playwright/test";
import { send } from "./helpers/chat";
import { createProject } from "./helpers/projects";
import { LOCAL, signInOnLocalhost, turnOnHistoryWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #56: the pages fit phones and desktops, with no horizontal scroll, and every chat-header action
 * stays on screen (the header's pills take a second row on a narrow column); the composer keeps a wide text field
 * (its buttons take a row under it on a narrow column).
 */
const SCREENS = "test-results/screens";
const WIDTHS = [360, 390, 768, 1280] as const;
const PHONES = [360, 390] as const;
const HEIGHT = 800;

async function expectNoHorizontalScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${what}: ${scrollWidth} px wide in a ${innerWidth} px window`).toBeLessThanOrEqual(innerWidth);
}

async function expectInViewport(page: Page, locator: Locator, what: string) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge in a ${width} px window`).toBeLessThanOrEqual(width);
}

/** A button whole on screen, and 40 px or more a side on a phone. */
async function expectTappable(page: Page, button: Locator, what: string) {
  await expectInViewport(page, button, what);
  if (page.viewportSize()!.width >= 640) return;
  const box = (await button.boundingBox())!;
  expect(Math.min(box.width, box.height), `${what}: its smaller side`).toBeGreaterThanOrEqual(40);
}

/** The header's actions a person needs on any screen. */
async function expectHeaderActionsOnScreen(page: Page, what: string, signedIn: boolean) {
  await expectTappable(page, page.getByRole("button", { name: "Chat options" }), `${what}: Chat options`);
  await expectTappable(page, page.getByRole("button", { name: /^Model: / }), `${what}: the model picker`);
  if (signedIn) await expectTappable(page, page.getByRole("button", { name: "Temporary chat" }), `${what}: Temporary chat`);
  // The model's privacy badge says "Standard" whole (its long line only where the header has room for it).
  const badge = page.getByTestId("model-privacy-badge");
  await expectInViewport(page, badge, `${what}: the privacy badge`);
  const cut = await badge.evaluate((el) => [...el.querySelectorAll("span")].some((s) => s.getClientRects().length > 0 && s.textContent === "Standard" && s.scrollWidth > s.clientWidth));
  expect(cut, `${what}: "Standard" cut`).toBe(false);
}

/** The composer's buttons; the optional ones an instance may not offer (no search engine, no transcription) are skipped. */
const COMPOSER_BUTTONS = ["Attach a file", "Search the web", "Run code", "Dictate", "Send message"] as const;
const OPTIONAL_BUTTONS: ReadonlySet<string> = new Set(["Search the web", "Run code", "Dictate"]);

/**
 * The composer keeps a text field a person can type in: its placeholder on one line and at least 240 px wide
 * (its buttons take a row under it on a narrow screen), and each button whole on screen, 40 px or more a side.
 */
async function expectRoomyComposer(page: Page, what: string) {
  const input = page.getByPlaceholder("Message GPT");
  await expect(input).toBeVisible();
  await expect(input).toHaveValue("");
  const field = await input.evaluate((el: HTMLTextAreaElement) => {
    const style = getComputedStyle(el);
    const pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = style.font;
    return {
      width: el.getBoundingClientRect().width,
      textRoom: el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      placeholder: context.measureText(el.placeholder).width,
      lines: (el.getBoundingClientRect().height - pad) / parseFloat(style.lineHeight),
    };
  });
  expect(field.width, `${what}: the text field's width`).toBeGreaterThanOrEqual(240);
  expect(field.placeholder, `${what}: the placeholder's width against the field's`).toBeLessThanOrEqual(field.textRoom);
  expect(field.lines, `${what}: the empty field's lines`).toBeLessThan(1.5);
  const composer = page.locator("form").filter({ has: input });
  for (const name of COMPOSER_BUTTONS) {
    const button = composer.getByRole("button", { name, exact: true });
    if (OPTIONAL_BUTTONS.has(name) && (await button.count()) === 0) continue;
    await expectInViewport(page, button, `${what}: ${name}`);
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height), `${what}: ${name}'s smaller side`).toBeGreaterThanOrEqual(40);
  }
}

test("a visitor's /chat and /pricing fit 360, 390, 768 and 1280 px; Chat options stays on screen and the composer's field wide on a phone", async ({ page }) => {
  await page.setViewportSize({ width: PHONES[0], height: HEIGHT });
  await page.goto("/chat");
  await send(page, "Fit this on a small phone");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await expectNoHorizontalScroll(page, `/chat with a chat (visitor, ${width} px)`);
    await expectHeaderActionsOnScreen(page, `/chat (visitor, ${width} px)`, false);
    await expectRoomyComposer(page, `/chat with a chat (visitor, ${width} px)`);
  }
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.goto("/chat");
    await expect(page.getByPlaceholder("Message GPT")).toBeVisible();
    await expectNoHorizontalScroll(page, `/chat (visitor, ${width} px)`);
    await expectRoomyComposer(page, `/chat (visitor, ${width} px)`);
    await page.goto("/pricing");
    await expectNoHorizontalScroll(page, `/pricing (visitor, ${width} px)`);
  }
});

test("signed in with a project open, /chat keeps its header on screen, its composer's field wide and its title on a desktop; /settings and /pricing fit", async ({ page }) => {
  test.slow();
  await signInOnLocalhost(page, `overflow-${Date.now()}@example.com`);
  await turnOnHistoryWithPassphrase(page, "wide pages are hard to read");
  const name = `Falcon launch plan for the spring quarter ${Date.now()}`;
  await createProject(page, name);
  await send(page, "Plan the falcon launch for the spring");
  await expect(page.getByTestId("chat-title")).not.toBeEmpty();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHT });
    const what = `/chat signed in with a project (${width} px)`;
    await expectNoHorizontalScroll(page, what);
    await expectHeaderActionsOnScreen(page, what, true);
    await expectRoomyComposer(page, what);
    const pill = page.getByTestId("chat-project");
    await expectInViewport(page, pill, `${what}: the project pill`);
    // A long name is cut only where the pill has taken all the room its row gives it.
    const room = await pill.evaluate((el) => {
      const name = el.querySelector(".truncate")!;
      const row = el.parentElement!;
      const used = row.lastElementChild!.getBoundingClientRect().right - row.firstElementChild!.getBoundingClientRect().left;
      return { cut: name.scrollWidth > name.clientWidth, free: row.clientWidth - used };
    });
    if (room.cut) expect(room.free, `${what}: room left beside the cut project pill`).toBeLessThanOrEqual(1);
    // "Temporary chat" on one line where its label shows.
    const label = page.getByRole("button", { name: "Temporary chat" }).locator("span:not(.sr-only)");
    if (await label.isVisible()) expect(await label.evaluate((el) => el.getClientRects().length), `${what}: Temporary chat lines`).toBe(1);
    if (width >= 1280) {
      const title = page.getByTestId("chat-title");
      await expect(title).toBeVisible();
      expect((await title.boundingBox())!.width, `${what}: the title's width`).toBeGreaterThanOrEqual(96);
    }
    // The header's menus open on screen, above the messages.
    await page.getByRole("button", { name: /^Model: / }).click();
    await expectInViewport(page, page.getByRole("list", { name: "Models" }), `${what}: the model list`);
    await expectNoHorizontalScroll(page, `${what}, the model list open`);
    await page.getByRole("button", { name: /^Model: / }).click();
    await page.getByRole("button", { name: "Chat options" }).click();
    const move = page.getByRole("menuitem", { name: "Move to project…" });
    await expectInViewport(page, move, `${what}: Move to project…`);
    await expectNoHorizontalScroll(page, `${what}, Chat options open`);
    await page.keyboard.press("Escape");
    await expect(move).toBeHidden();
    await page.screenshot({ path: `${SCREENS}/overflow-chat-project-${width}.png` });
  }

  for (const path of ["/settings", "/pricing"]) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: HEIGHT });
      await page.goto(`${LOCAL}${path}`);
      await expect(page.locator("h1").first()).toBeVisible();
      await expectNoHorizontalScroll(page, `${path} signed in (${width} px)`);
    }
  }
});
