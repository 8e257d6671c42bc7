import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signInLinkFor } from "./helpers/auth";
import { newChat } from "./helpers/chat";
import { LOCAL, sidebarOf, signInOnLocalhost, turnOnHistoryWithPassphrase, unlockWithPassphrase } from "./helpers/vault";

/**
 * docs/issues.md #23 "Nothing a user typed is lost": a visitor's conversation survives the spec's redirects to
 * /pricing (Pro model, docs/product.md §4) and /signup (daily limit, §8) and is offered back after signing in
 * in the same tab; a signed-in user's draft survives a reload sealed with the vault key; a provider failure
 * says it is not a limit and Retry works; /login leads to /signup. Screenshots of every changed screen.
 */
const SCREENS = "test-results/screens";
const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

const assistant = (page: Page) => page.locator('[data-role="assistant"]');
const userMessages = (page: Page) => page.locator('[data-role="user"]');
const composer = (page: Page) => page.getByPlaceholder("Message GPT");

async function ask(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press("Enter");
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
}

async function expectNoAxeViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

for (const size of SIZES) {
  test(`a visitor's conversation, draft and PDF survive the Pro pick: Back and "Try Free" return to it (${size.name})`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: size.viewport });
    const page = await context.newPage();
    await page.goto("/chat");
    await ask(page, "Plan a walk along the harbour");
    await expect(assistant(page)).toHaveCount(1);
    await expect(assistant(page).first()).toContainText("You asked: Plan a walk along the harbour");
    await expect(page.getByTestId("chat-title")).toHaveText("Plan a walk along the harbour");
    await page.getByTestId("file-input").setInputFiles("tests/fixtures/e2e-report.pdf");
    await expect(page.getByTestId("staged-file")).toContainText("e2e-report.pdf");
    // Read in this browser (a Web Worker): what is kept is the text, once it is read.
    await expect(page.getByTestId("staged-file")).not.toHaveAttribute("data-reading");
    await composer(page).fill("And what should I pack?");
    await page.screenshot({ path: `${SCREENS}/keep-chat-before-pro-${size.name}.png` });

    await page.getByRole("button", { name: /^Model: Basic/ }).click();
    await page.getByRole("button", { name: /^Pro/ }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/chat$/);
    await expect(userMessages(page)).toHaveText(["Plan a walk along the harbour"]);
    await expect(assistant(page)).toHaveCount(1);
    await expect(composer(page)).toHaveValue("And what should I pack?");
    await expect(page.getByTestId("staged-file")).toContainText("e2e-report.pdf");

    // Through the Free card's "Try Free" (shown from md up; on a phone the header's Chat link), then a reload.
    await page.getByRole("button", { name: /^Model: Basic/ }).click();
    await page.getByRole("button", { name: /^Pro/ }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    if (size.name === "desktop") await page.getByRole("link", { name: "Try Free" }).click();
    else await page.goBack();
    await expect(page).toHaveURL(/\/chat$/);
    await page.reload();
    await expect(userMessages(page)).toHaveText(["Plan a walk along the harbour"]);
    await expect(composer(page)).toHaveValue("And what should I pack?");
    await expect(page.getByTestId("staged-file")).toContainText("e2e-report.pdf");
    await page.screenshot({ path: `${SCREENS}/keep-chat-after-back-${size.name}.png` });

    // Only this tab's sessionStorage holds it: /chat opened by its address in this tab brings it back
    // (docs/issues.md #56), a new tab starts a new chat.
    const stored = await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: Object.keys(localStorage) }));
    expect(stored.session).toContain("hush.visitor-conversation.v1");
    expect(stored.local.filter((k) => k.startsWith("hush."))).toEqual([]);
    await page.goto("/");
    await page.goto("/chat");
    await expect(userMessages(page)).toHaveText(["Plan a walk along the harbour"]);
    await expect(assistant(page)).toHaveCount(1);
    await expect(composer(page)).toHaveValue("And what should I pack?");
    await page.goto("/chat");
    await expect(userMessages(page)).toHaveText(["Plan a walk along the harbour"]);
    await page.screenshot({ path: `${SCREENS}/keep-chat-by-url-${size.name}.png` });
    const other = await context.newPage();
    await other.goto("/chat");
    await expect(other.getByRole("heading", { name: "How can I help?" })).toBeVisible();
    // Wanting a fresh chat instead, the user has "New chat" in view; /chat then stays new in this tab.
    await newChat(page);
    await expect(userMessages(page)).toHaveCount(0);
    await page.goto("/chat");
    await expect(page.getByRole("heading", { name: "How can I help?" })).toBeVisible();
    await expect(userMessages(page)).toHaveCount(0);
    await context.close();
  });
}

test("a visitor at the daily limit goes to /signup, Back returns to the chat, and after signing in in the tab it is kept", async ({ page }) => {
  // The server's 429 for a visitor at the limit (the real one is e2e/billing.spec.ts's): from the third send.
  let sends = 0;
  await page.route("**/api/ns/chat", async (route) => {
    if (++sends < 3) return route.continue();
    await route.fulfill({ status: 429, headers: { "retry-after": "3600" }, json: { error: "You have used today's messages." } });
  });
  await page.goto("/chat");
  await ask(page, "First question about tides");
  await ask(page, "Second question about moons");
  await expect(assistant(page)).toHaveCount(2);
  await composer(page).fill("Third question, over the limit");
  await composer(page).press("Enter");
  await expect(page).toHaveURL(/\/signup\?reason=limit$/);
  await expect(page.getByTestId("signup-reason")).toContainText("Your conversation is kept in this tab");
  await page.screenshot({ path: `${SCREENS}/keep-signup-limit-desktop.png` });
  await expectNoAxeViolations(page, "/signup?reason=limit");

  await page.goBack();
  await expect(userMessages(page)).toHaveText(["First question about tides", "Second question about moons"]);
  await expect(composer(page)).toHaveValue("Third question, over the limit");
  await page.goForward();
  await expect(page).toHaveURL(/\/signup\?reason=limit$/);

  // Sign up by e-mail link in this tab.
  await page.unroute("**/api/ns/chat");
  const email = unique("keep-visitor");
  const since = Date.now() - 1000;
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByTestId("auth-notice")).toContainText(email);
  await page.goto(await signInLinkFor(email, since));
  await page.waitForURL("**/chat");
  const offer = page.getByTestId("kept-offer");
  await expect(offer).toContainText("The conversation you had before signing in (4 messages) is still in this tab.");
  await page.screenshot({ path: `${SCREENS}/keep-offer-desktop.png` });
  await expectNoAxeViolations(page, "/chat with the kept-conversation offer");
  await offer.getByRole("button", { name: "Keep it" }).click();
  await expect(offer).toHaveCount(0);
  await expect(userMessages(page)).toHaveText(["First question about tides", "Second question about moons"]);
  await expect(composer(page)).toHaveValue("Third question, over the limit");
  // The copy in the tab is gone once kept; the chat goes on signed in.
  expect(await page.evaluate(() => sessionStorage.getItem("hush.visitor-conversation.v1"))).toBeNull();
  await composer(page).press("Enter");
  await expect(assistant(page)).toHaveCount(3);
  await expect(assistant(page).last()).toContainText("You asked: Third question, over the limit");
});

test("after signing in with Save history on, the visitor's conversation is kept as the first saved chat", async ({ page }) => {
  // Sign in on localhost (the vault needs it), with history on, then sign out to chat as a visitor there.
  const email = unique("keep-saved");
  await signInOnLocalhost(page, email);
  await turnOnHistoryWithPassphrase(page, "harbour lantern quietly folding maps 42");
  const cookies = await page.context().cookies(LOCAL);
  await page.context().clearCookies();
  await page.goto(`${LOCAL}/chat`);
  await ask(page, "Visitor question about lighthouses");
  await expect(assistant(page)).toHaveCount(1);
  // Signing in again in this tab (the session cookie comes back), then the app's own navigation to /chat.
  await page.context().addCookies(cookies);
  await page.getByRole("link", { name: "Pricing" }).first().click();
  await expect(page).toHaveURL(/\/pricing$/);
  await page.reload();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" }).click();
  const sidebar = sidebarOf(page);
  await unlockWithPassphrase(sidebar, "harbour lantern quietly folding maps 42");
  const offer = page.getByTestId("kept-offer");
  await expect(offer).toContainText("Keep it as a saved chat?");
  await offer.getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByText("Kept as a saved chat")).toBeVisible();
  const entries = sidebar.getByRole("navigation", { name: "Saved chats" }).getByRole("listitem");
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText("Visitor question about lighthouses");
});

test("a signed-in draft survives a failed send and a reload, sealed with the vault key (never in clear)", async ({ page }) => {
  const passphrase = "copper kettle singing under winter stars 7";
  await signInOnLocalhost(page, unique("keep-draft"));
  await turnOnHistoryWithPassphrase(page, passphrase);
  const canary = `draft-canary-${Date.now()}`;

  // A failed send keeps the text in the composer.
  await composer(page).fill(`Will fail ${canary} [[fake:500]]`);
  await composer(page).press("Enter");
  await expect(page.getByTestId("chat-error-detail")).toContainText("This is not a limit on your account.");
  await expect(composer(page)).toHaveValue(`Will fail ${canary} [[fake:500]]`);

  // A draft being written, then a reload (once the sealed draft in storage is this text's: it changes).
  const sealedDraft = () => page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("hush.draft.v1.")).map(([, v]) => v));
  // The failed send's text is a draft too: wait for its seal to be stored and settled, or a late write of it could
  // pass for the next one's on a loaded machine.
  let last = await sealedDraft();
  await expect.poll(async () => {
    const now = await sealedDraft();
    const settled = now.length === 1 && now[0] === last[0];
    last = now;
    return settled;
  }, { intervals: [700], timeout: 20_000 }).toBe(true);
  const before = last;
  await composer(page).fill(`Half-written thought ${canary}`);
  await expect.poll(async () => { const now = await sealedDraft(); return now.length === 1 && now[0] !== before[0]; }).toBe(true);
  const stored = await page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("hush.draft.v1.")));
  expect(stored[0]![0]).toMatch(/\.new$/);
  const sealed = stored[0]![1];
  expect(sealed).not.toContain(canary);
  expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain(canary);
  const everything = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(everything).not.toContain(canary);

  await page.reload();
  await expect(composer(page)).toHaveValue("");
  await unlockWithPassphrase(sidebarOf(page), passphrase);
  await expect(composer(page)).toHaveValue(`Half-written thought ${canary}`);
  await page.screenshot({ path: `${SCREENS}/keep-draft-restored-desktop.png` });

  // Sent: the draft is gone.
  await composer(page).press("Enter");
  await expect(assistant(page)).toHaveCount(1);
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("hush.draft.v1.")).length)).toBe(0);

  // A draft of the saved chat goes when the chat is deleted (after the undo window).
  await composer(page).fill(`Second thought ${canary}`);
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("hush.draft.v1.") && !k.endsWith(".new")).length))
    .toBe(1);
  await sidebarOf(page).getByRole("button", { name: /^Delete / }).first().click();
  await page.getByRole("dialog", { name: "Delete this chat?" }).getByRole("button", { name: "Delete", exact: true }).click();
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("hush.draft.v1.") && !k.endsWith(".new")).length), { timeout: 15_000 }).toBe(0);
});

test("a provider failure says what happened and that it is not a limit; Retry sends it again and it is answered", async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto("/chat");
    // In this tab /chat brings the last size's conversation back: the user starts a new one.
    if (size !== SIZES[0]) await newChat(page);
    const text = `Retry me [[fake:once-${size.name}-${Date.now()}]]`;
    await composer(page).fill(text);
    await composer(page).press("Enter");
    const error = page.getByTestId("chat-error");
    await expect(error).toContainText("You've reached your usage limit. Upgrade to get priority access.");
    await expect(page.getByTestId("chat-error-detail")).toHaveText(
      "The model did not answer: the model service failed. This is not a limit on your account.",
    );
    await expect(composer(page)).toHaveValue(text);
    await page.screenshot({ path: `${SCREENS}/keep-provider-failure-${size.name}.png` });
    await expectNoAxeViolations(page, `/chat with a provider failure (${size.name})`);
    await error.getByRole("button", { name: "Retry" }).click();
    await expect(error).toHaveCount(0);
    await expect(assistant(page)).toHaveCount(1);
    await expect(assistant(page).first()).toContainText("You asked: Retry me");
    await expect(composer(page)).toHaveValue("");
  }
});

test("/login leads to /signup, which tells returning users the same link or Google account signs them in", async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByTestId("signup-returning")).toHaveText("New or returning: the same e-mail link or Google account signs you in.");
    await page.screenshot({ path: `${SCREENS}/keep-signup-${size.name}.png` });
    await expectNoAxeViolations(page, `/signup (${size.name})`);
  }
});

test("/chat fits the viewport with the footer in view, the title in the header; pricing and settings read honestly", async ({ page }) => {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto("/chat");
    if (size !== SIZES[0]) await newChat(page);
    await ask(page, "A question to title this chat");
    await expect(assistant(page)).toHaveCount(1);
    const fits = await page.evaluate(() => ({
      scroll: document.documentElement.scrollHeight,
      height: window.innerHeight,
      footerBottom: document.querySelector("footer")!.getBoundingClientRect().bottom,
    }));
    expect(fits.scroll).toBeLessThanOrEqual(fits.height);
    expect(fits.footerBottom).toBeLessThanOrEqual(fits.height);
    await expect(page.getByRole("heading", { level: 1, name: "A question to title this chat" })).toBeAttached();
    await page.screenshot({ path: `${SCREENS}/keep-chat-fit-${size.name}.png` });
    await expectNoAxeViolations(page, `/chat with a conversation (${size.name})`);

    await page.goto("/pricing");
    await expect(page.getByTestId("fair-use")).toContainText("Unlimited within fair use: up to 100,000 messages a day");
    await page.screenshot({ path: `${SCREENS}/keep-pricing-${size.name}.png`, fullPage: true });
    await expectNoAxeViolations(page, `/pricing (${size.name})`);
  }
  await signInOnLocalhost(page, unique("keep-settings"));
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto(`${LOCAL}/settings`);
    await expect(page.getByTestId("plan-sentence")).toContainText("You are on the Free plan; no paid subscription is active (status: inactive).");
    await page.screenshot({ path: `${SCREENS}/keep-settings-${size.name}.png` });
    await expectNoAxeViolations(page, `/settings (${size.name})`);
  }
});
