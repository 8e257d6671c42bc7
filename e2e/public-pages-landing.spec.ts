import { expect, test } from "@playwright/test";
import { metaContent } from "./helpers/public-pages";

/**
 * The public face (docs/product.md §1 and §2), the landing page: its sections, links, industry selector, Compare
 * table and JSON-LD, and an unknown path showing it with status 404. Expected values are copied from the spec, not
 * from content/landing.ts, so a content edit that breaks the spec fails here. The other public pages:
 * e2e/public-pages-legal.spec.ts; header, footer, crawler metadata and the no-tracker promise: e2e/public-pages-site.spec.ts.
 */

const SECTION_TITLES = [
  "Private and secure",
  "Why Hush",
  "Five promises",
  "Made for confidential work",
  "Compare",
  "Based in New Zealand and Australia",
  "Start a private conversation",
];

const INDUSTRIES = [
  "Legal Services",
  "Accounting",
  "Finance and Banking",
  "Healthcare",
  "Real Estate and Construction",
  "Public Sector",
  "Telecommunications",
  "Energy and Utilities",
  "Retail and Commerce",
  "Education and Research",
  "Pharma and Biotech",
  "Insurance",
];

/** docs/product.md §2 Compare table, with yes/no as the cells' accessible text. */
const COMPARE = [
  ["Sovereignty", "No", "Yes", "Yes"],
  ["On-Premise", "No", "No", "No"],
  ["Encryption", "Basic", "High", "Max"],
  ["Custom", "Yes", "Yes", "Yes"],
  ["Scalability", "Yes", "Yes", "Yes"],
];

test.describe("landing page", () => {
  test("has every section of docs/product.md §2 in order, prerendered", async ({ page }) => {
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    expect(response?.headers()["x-nextjs-prerender"]).toBeTruthy();
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Chat Freely");
    expect(await main.locator("h2").allTextContents()).toEqual(SECTION_TITLES);

    const hero = main.locator("section").first();
    await expect(hero.getByRole("link", { name: "Try for free" })).toHaveAttribute("href", "/chat");
    await expect(hero.getByRole("link", { name: "Contact us" })).toHaveAttribute("href", "/contact");

    const privateSection = main.getByRole("region", { name: "Private and secure" });
    const cloud = privateSection.locator("article", { has: page.getByRole("heading", { name: "Cloud" }) });
    const enterprise = privateSection.locator("article", { has: page.getByRole("heading", { name: "Enterprise" }) });
    await expect(cloud.getByRole("link")).toHaveAttribute("href", "/chat");
    await expect(enterprise.getByRole("link")).toHaveAttribute("href", "/contact");

    const promises = main.getByRole("region", { name: "Five promises" }).getByRole("listitem");
    await expect(promises).toHaveCount(5);
    await expect(promises.locator("h3")).toHaveText([
      "Confidential and encrypted",
      "No training on your data",
      "No access to your conversations",
      "No third-party sharing",
      "No ads or trackers",
    ]);
    // docs/issues.md #8: each promise literally true of the mechanism, with the details one click away.
    const promisesRegion = main.getByRole("region", { name: "Five promises" });
    await expect(promisesRegion).toContainText("Saved chats are encrypted with a key only you hold, so we cannot read them.");
    await expect(promisesRegion).toContainText("Messages pass through Hush's servers in memory to reach the model and are never stored or logged.");
    await expect(promisesRegion.getByRole("link", { name: "What Hush can see, in detail" })).toHaveAttribute("href", "/privacy");

    const closing = main.getByRole("region", { name: "Start a private conversation" });
    await expect(closing.getByRole("link", { name: "Try for free" })).toHaveAttribute("href", "/chat");
    await expect(closing.getByRole("link", { name: "Chat with us" })).toHaveAttribute("href", "/contact");
  });

  test("the featured-on badge links out, with its image served from our own origin", async ({ page, request }) => {
    await page.goto("/");
    const badge = page.getByRole("link", { name: /featured on/i });
    const href = await badge.getAttribute("href");
    expect(href).toMatch(/^https:\/\//);
    expect(new URL(href!).host).not.toBe(new URL(page.url()).host);
    expect(await badge.getAttribute("rel")).toContain("noopener");

    const img = badge.getByRole("img");
    const src = await img.getAttribute("src");
    expect(src).toMatch(/^\/[^/]/); // a path on this origin
    const image = await request.get(src!);
    expect(image.ok()).toBe(true);
    expect(image.headers()["content-type"]).toContain("image/svg+xml");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  });

  test("industry selector: first selected, click toggles, another shows its panel", async ({ page }) => {
    await page.goto("/");
    const section = page.getByRole("region", { name: "Made for confidential work" });
    const buttons = section.getByRole("button");
    await expect(buttons).toHaveText(INDUSTRIES);
    const panel = section.locator(`[id="${await buttons.first().getAttribute("aria-controls")}"]`);

    // The first industry is selected from the server-rendered HTML on.
    await expect(buttons.first()).toHaveAttribute("aria-expanded", "true");
    await expect(panel.getByRole("heading")).toHaveText("Legal Services");
    await expect(panel).toContainText("privilege");

    // Clicking the selected one deselects it: no description shown.
    await buttons.first().click();
    await expect(buttons.first()).toHaveAttribute("aria-expanded", "false");
    await expect(panel.getByRole("heading")).toHaveCount(0);
    for (const b of await buttons.all()) await expect(b).toHaveAttribute("aria-expanded", "false");

    // Clicking another selects it and shows its description; only one is ever selected.
    await section.getByRole("button", { name: "Healthcare" }).click();
    await expect(panel.getByRole("heading")).toHaveText("Healthcare");
    await expect(panel).toContainText("Patient records");
    await section.getByRole("button", { name: "Insurance" }).click();
    await expect(panel.getByRole("heading")).toHaveText("Insurance");
    await expect(section.locator('button[aria-expanded="true"]')).toHaveText(["Insurance"]);

    // Every industry has its own description paragraph.
    const seen = new Set<string>();
    for (const name of INDUSTRIES) {
      const button = section.getByRole("button", { name });
      if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
      await expect(panel.getByRole("heading")).toHaveText(name);
      const text = (await panel.locator("p").textContent()) ?? "";
      expect(text.length).toBeGreaterThan(200);
      seen.add(text);
    }
    expect(seen.size).toBe(INDUSTRIES.length);
  });

  test("industry selector works from the keyboard", async ({ page }) => {
    await page.goto("/");
    const section = page.getByRole("region", { name: "Made for confidential work" });
    const accounting = section.getByRole("button", { name: "Accounting" });
    await accounting.focus();
    await page.keyboard.press("Enter");
    await expect(accounting).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Space");
    await expect(accounting).toHaveAttribute("aria-expanded", "false");
  });

  test("the Compare table is exactly the spec's", async ({ page }) => {
    await page.goto("/");
    const table = page.getByRole("table");
    expect(await table.locator("thead th").allTextContents()).toEqual(["Feature", "ChatGPT", "Cloud", "Enterprise"]);
    const rows = await table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("th, td")).map((c) => (c.textContent ?? "").trim())),
    );
    expect(rows).toEqual(COMPARE);
  });

  test("JSON-LD describes the organisation and the product", async ({ page }) => {
    await page.goto("/");
    const raw = await page.locator('script[type="application/ld+json"]').textContent();
    const data = JSON.parse(raw ?? "{}") as { "@context": string; "@graph": Array<Record<string, unknown>> };
    expect(data["@context"]).toBe("https://schema.org");
    const types = data["@graph"].map((n) => n["@type"]);
    expect(types).toEqual(expect.arrayContaining(["Organization", "SoftwareApplication"]));
    const org = data["@graph"].find((n) => n["@type"] === "Organization")!;
    expect(org.name).toBe("Hush");
  });
});

test("an unknown path shows the landing page with status 404 and noindex", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chat Freely");
  expect(await page.locator("main h2").allTextContents()).toEqual(SECTION_TITLES);
  await expect(page.getByRole("banner")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible();
  expect(await metaContent(page, 'meta[name="robots"]')).toContain("noindex");
  // The selector is interactive on the 404 page too.
  const section = page.getByRole("region", { name: "Made for confidential work" });
  await section.getByRole("button", { name: "Legal Services" }).click();
  await expect(section.getByRole("button", { name: "Legal Services" })).toHaveAttribute("aria-expanded", "false");
});

test("the landing page's promises, desktop and phone", async ({ page }) => {
  await page.goto("/");
  const promises = page.getByRole("region", { name: "Five promises" });
  // The sticky header would cover the top of an element screenshot.
  await page.addStyleTag({ content: "header { position: static !important; }" });
  await promises.screenshot({ path: "test-results/screens/landing-promises-desktop.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await promises.screenshot({ path: "test-results/screens/landing-promises-mobile.png" });
  await promises.getByRole("link", { name: "What Hush can see, in detail" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
});
