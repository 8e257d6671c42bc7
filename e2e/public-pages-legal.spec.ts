import { expect, test } from "@playwright/test";

/**
 * The public face (docs/product.md §1 and §2), the pages besides the landing page: privacy, terms and contact.
 * Expected values are copied from the spec, so a content edit that breaks the spec fails here.
 */

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
