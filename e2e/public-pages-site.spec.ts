import { expect, test } from "@playwright/test";
import { metaContent, settle } from "./helpers/public-pages";

/**
 * The public face (docs/product.md §1 and §2) across its pages: header and footer, crawler metadata and the
 * no-tracker promise. Expected values are copied from the spec, so a content edit that breaks the spec fails here.
 */

const PUBLIC_PAGES = ["/", "/termsofservice", "/privacy", "/contact", "/pricing", "/this/path/does-not-exist"];

test.describe("header and footer", () => {
  test("desktop header and footer links", async ({ page }) => {
    await page.goto("/termsofservice");
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "Hush home" })).toHaveAttribute("href", "/");
    const nav = header.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(["Pricing", "Chat", "Sign Up"]);
    await expect(nav.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
    await expect(nav.getByRole("link", { name: "Chat" })).toHaveAttribute("href", "/chat");
    await expect(nav.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
    await expect(header.getByRole("button", { name: "Open menu" })).toBeHidden();

    const footer = page.getByRole("contentinfo");
    await expect(footer).toContainText("Hush");
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/termsofservice");
    await expect(footer.getByRole("link", { name: "Privacy" })).toHaveAttribute("href", "/privacy");
    await expect(footer.getByRole("link", { name: "Contact" })).toHaveAttribute("href", /^mailto:.+@.+/);
  });

  test("mobile menu toggle opens and closes the header links", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const header = page.getByRole("banner");
    await expect(header.getByRole("navigation", { name: "Main" })).toBeHidden();
    const toggle = header.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("link")).toHaveText(["Pricing", "Chat", "Sign Up"]);
    await expect(header.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");

    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(header.getByRole("button", { name: "Open menu" })).toBeFocused();

    await header.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Chat" }).click();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });
});

test.describe("for crawlers and sharing", () => {
  for (const [path, title] of [
    ["/", "Hush: Private, encrypted AI chat"],
    ["/termsofservice", "Terms of Service · Hush"],
    ["/privacy", "Privacy · Hush"],
    ["/contact", "Contact · Hush"],
  ] as const) {
    test(`${path} has title, description, canonical, Open Graph and Twitter card`, async ({ page, request }) => {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      expect((await metaContent(page, 'meta[name="description"]'))?.length).toBeGreaterThan(50);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
      expect(new URL(canonical!).pathname).toBe(path);
      expect(await metaContent(page, 'meta[property="og:title"]')).toBe(title);
      expect(await metaContent(page, 'meta[property="og:url"]')).toBe(canonical);
      expect(await metaContent(page, 'meta[name="twitter:card"]')).toBe("summary_large_image");
      expect(await page.locator('meta[name="robots"]').count()).toBe(0);

      for (const selector of ['meta[property="og:image"]', 'meta[name="twitter:image"]']) {
        const url = new URL((await metaContent(page, selector))!);
        const image = await request.get(url.pathname + url.search);
        expect(image.ok()).toBe(true);
        expect(image.headers()["content-type"]).toBe("image/png");
        expect((await image.body()).length).toBeGreaterThan(10_000);
      }
    });
  }

  test("sitemap.xml and robots.txt", async ({ request }) => {
    const sitemap = await (await request.get("/sitemap.xml")).text();
    for (const path of ["/", "/pricing", "/contact", "/privacy", "/termsofservice"]) {
      expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+${path === "/" ? "/" : path}</loc>`));
    }
    expect(sitemap).not.toContain("/chat");
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("User-Agent: *");
    expect(robots).toContain("Disallow: /api/");
    expect(robots).toMatch(/Sitemap: https?:\/\/\S+\/sitemap\.xml/);
  });

  test("/chat, /settings and the auth pages are noindex; public pages are not", async ({ request }) => {
    for (const path of ["/chat", "/settings", "/signup", "/appsignup", "/purchase-complete", "/purchase-failed"]) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.headers()["x-robots-tag"], path).toContain("noindex");
    }
    for (const path of ["/", "/termsofservice", "/privacy", "/contact"]) {
      const res = await request.get(path);
      expect(res.headers()["x-robots-tag"], path).toBeUndefined();
    }
  });
});

test("no trackers: public pages request nothing from other origins and set no cookie", async ({ browser, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  for (const path of PUBLIC_PAGES) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.goto(path);
    await settle(page, requested);
    // Bring lazy content into view and use the page's interactive parts.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const industry = page.getByRole("button", { name: "Healthcare" });
    if (await industry.count()) await industry.click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Open menu" }).click();
    await settle(page, requested);

    const foreign = requested.filter((u) => !u.startsWith("data:") && new URL(u).origin !== origin);
    expect(foreign, `${path} requested another origin`).toEqual([]);
    expect(requested.length).toBeGreaterThan(0);
    expect(await context.cookies(), `${path} set a cookie`).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe("");
    await context.close();
  }
});
