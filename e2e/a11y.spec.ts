import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

/**
 * Accessibility of the public pages (issue "Quality bars"): axe-core finds no violation, everything is
 * reachable by keyboard with a visible focus ring, and motion stops under prefers-reduced-motion.
 */

const PUBLIC_PAGES = ["/", "/termsofservice", "/privacy", "/contact", "/pricing", "/some/unknown/path"];
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  for (const theme of ["light", "dark"] as const) {
    // docs/issues.md #9: both themes (the theme follows the system by default).
    test(`axe finds no violations on the public pages (${viewport.name}, ${theme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize(viewport);
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
        await expectNoAxeViolations(page, `${path} (${viewport.name}, ${theme})`);
      }
    });
  }
}

test("axe finds no violations in the page's other states", async ({ page }) => {
  await page.goto("/");
  // No industry selected.
  await page.getByRole("button", { name: "Legal Services" }).click();
  await expectNoAxeViolations(page, "/ with no industry selected");
  await page.getByRole("button", { name: "Pharma and Biotech" }).click();
  await expectNoAxeViolations(page, "/ with another industry selected");
  // The open mobile menu.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Open menu" }).click();
  await expectNoAxeViolations(page, "/ with the mobile menu open");
});

/**
 * Tab through the whole page and check each stop: every visible link and button is reached, in DOM
 * order, and each shows a focus outline of at least 2px that is not transparent.
 */
async function tabThroughPage(page: Page) {
  const expected = await page.evaluate(() => {
    const els = Array.from(document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, [tabindex]"));
    return els
      .filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
      .map((el, i) => {
        el.dataset.kbd = String(i);
        return i;
      }).length;
  });
  expect(expected).toBeGreaterThan(3);

  const reached: number[] = [];
  for (let i = 0; i < expected + 2; i++) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      return {
        kbd: el.dataset.kbd ?? null,
        label: (el.getAttribute("aria-label") ?? el.textContent ?? el.tagName).trim().slice(0, 40),
        outlineStyle: s.outlineStyle,
        outlineWidth: parseFloat(s.outlineWidth),
        outlineColor: s.outlineColor,
      };
    });
    if (!stop) continue;
    expect(stop.kbd, `focus went to an element outside the expected list: ${stop.label}`).not.toBeNull();
    expect(stop.outlineStyle, `no focus ring on "${stop.label}"`).not.toBe("none");
    expect(stop.outlineWidth, `focus ring too thin on "${stop.label}"`).toBeGreaterThanOrEqual(2);
    expect(stop.outlineColor, `invisible focus ring on "${stop.label}"`).not.toMatch(/rgba\(.*, 0\)|transparent/);
    const n = Number(stop.kbd);
    if (!reached.includes(n)) reached.push(n);
  }
  expect(reached).toEqual(Array.from({ length: expected }, (_, i) => i));
}

test("keyboard: every control is reachable in order with a visible focus ring", async ({ page }) => {
  for (const path of ["/", "/termsofservice", "/contact"]) {
    await page.goto(path);
    await tabThroughPage(page);
  }
});

test("keyboard: the skip link jumps to the main content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
});

test("keyboard on a phone: the mobile menu opens and its links are reachable", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // logo
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Pricing" })).toBeFocused();
});

test("prefers-reduced-motion turns transitions off", async ({ page }) => {
  const transitionOf = () =>
    page.getByRole("link", { name: "Try for free" }).first().evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
  await page.goto("/");
  expect(await transitionOf()).toBeGreaterThan(0.05);
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await transitionOf()).toBeLessThan(0.001);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
});
