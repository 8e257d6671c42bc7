import { expect, test, type Page } from "@playwright/test";

/**
 * The public face (docs/product.md §1 and §2): landing page, unknown paths, terms, contact, header and footer,
 * crawler metadata and the no-tracker promise. Expected values are copied from the spec, not from
 * content/landing.ts, so a content edit that breaks the spec fails here.
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

const PUBLIC_PAGES = ["/", "/termsofservice", "/privacy", "/contact", "/pricing", "/this/path/does-not-exist"];

/**
 * Wait until no new request has started for a second (at most 15 s). Not "networkidle": Next leaves the
 * prefetch of a not-yet-existing route (a 404 RSC answer whose body it never reads) open for good.
 */
async function settle(page: Page, requested: readonly string[]) {
  let last = -1;
  for (let i = 0; i < 15 && requested.length !== last; i++) {
    last = requested.length;
    await page.waitForTimeout(1000);
  }
}

async function metaContent(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).first().getAttribute("content");
}

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

test("/privacy says which provider serves each model and what the server sees and stores (docs/issues.md #8)", async ({ page }) => {
  const response = await page.goto("/privacy");
  expect(response?.status()).toBe(200);
  // Rendered per request from the running server's settings (not baked in at build time): the e2e
  // server sends both models to the fake OpenAI-compatible server, which has no name or retention set.
  expect(response?.headers()["x-nextjs-prerender"]).toBeFalsy();
  const main = page.locator("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText("What Hush can see");
  expect(await main.locator("h2").allTextContents()).toEqual([
    "Who answers your messages",
    "What our servers see",
    "What we store",
    "What runs in your browser",
    "Training and sharing",
  ]);
  const rows = main.getByTestId("provider-table").locator("tbody tr");
  await expect(rows.locator("th")).toHaveText(["Basic", "Pro"]);
  const llmHost = `127.0.0.1:${Number(process.env.E2E_LLM_PORT ?? 4010)}`;
  for (const row of await rows.all()) {
    await expect(row.locator("td")).toHaveText([
      llmHost,
      "Not stated by this server's operator: see the provider's own terms.",
      // docs/issues.md #20: the e2e server's models are standard (not served by an enclave), labelled honestly.
      `Standard: Hush's server and ${llmHost} process your messages`,
    ]);
  }
  await expect(main).toContainText("passes through Hush's servers in memory");
  await expect(main).toContainText("Chats without an account are never stored");
  await expect(main).toContainText("encrypted in your browser with a key only you hold");
  await page.screenshot({ path: "test-results/screens/privacy-desktop.png", fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/screens/privacy-mobile.png", fullPage: true });
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

test("/termsofservice has the eleven sections of docs/product.md §2", async ({ page }) => {
  const response = await page.goto("/termsofservice");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-nextjs-prerender"]).toBeTruthy();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Terms of Service");
  const sections = page.locator("main section");
  await expect(sections).toHaveCount(11);
  await expect(sections.locator("h2")).toHaveText([
    /Agreement/,
    /responsibilities/,
    /Service features/,
    /Payment and subscription/,
    /Data privacy and security/,
    /Warranty disclaimer and limitation of liability/,
    /Termination/,
    /Governing law/,
    /Third parties/,
    /Independent contractor/,
    /Experimental/,
  ]);
  const text = (await page.locator("main").textContent()) ?? "";
  expect(text).toContain("laws of New Zealand");
  expect(text).toContain("courts of Auckland");
  expect(text).toContain("three months");
  expect(text).toMatch(/experimental/i);
  expect(text).toMatch(/Cloud[\s\S]*third-party compute partners/);
  expect(text).toMatch(/Enterprise[\s\S]*processed locally/);
  // The table of contents reaches every section.
  await page.getByRole("navigation", { name: "Contents" }).getByRole("link", { name: "Governing law" }).click();
  await expect(page).toHaveURL(/#governing-law$/);
});

test("/contact is 'Chat with our team' with the contact e-mail link", async ({ page }) => {
  const response = await page.goto("/contact");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-nextjs-prerender"]).toBeTruthy();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chat with our team");
  const mail = page.locator("main").getByRole("link", { name: /@/ });
  const href = await mail.getAttribute("href");
  expect(href).toMatch(/^mailto:[^@\s]+@[^@\s]+\.[a-z]+$/);
  await expect(mail).toHaveText(href!.replace(/^mailto:/, ""));
  // The footer's Contact link goes to the same address.
  await expect(page.getByRole("contentinfo").getByRole("link", { name: "Contact" })).toHaveAttribute("href", href!);
});

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
