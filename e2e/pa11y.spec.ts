import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import pa11y from "pa11y";
import puppeteer, { type Browser } from "puppeteer";
import { sealSnapshot, shareLink } from "@/lib/browser/share/crypto";
import { toBase64 } from "@/lib/browser/vault/crypto";
import { LOCAL, signInOnLocalhost } from "./helpers/vault";

/**
 * pa11y and axe on every page (docs/issues.md #23: "axe and pa11y clean on every page"): each route of the app
 * as a visitor, the signed-in screens with the session of an account made here, and a shared chat, at
 * desktop and phone sizes.
 * - pa11y 9 drives its own headless Chromium (Debian's, through puppeteer; puppeteer's browser download
 *   is off in package.json allowScripts) with its default runner, HTML_CodeSniffer, at WCAG 2 AA.
 *   Its axe runner is not used: it files axe's "needs review" results (e.g. text over the hero's
 *   gradient, whose background axe cannot compute: "bgOverlap") as errors by their impact, so it fails
 *   pages axe itself passes.
 * - axe-core runs through @axe-core/playwright on the same pages in the test's own browser; its
 *   violations are failures.
 * The checks of the pages' other states (dialogs, menus, both themes) are in the specs of those flows.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844, isMobile: true, hasTouch: true },
] as const;

/** Every route of the app a visitor can open (app/**\/page.tsx, and an unknown path's 404). */
const VISITOR_PAGES = [
  "/",
  "/termsofservice",
  "/privacy",
  "/contact",
  "/pricing",
  "/signup",
  "/signup?reason=limit",
  "/chat",
  "/purchase-complete",
  "/purchase-failed",
  "/appsignup",
  "/some/unknown/path",
];
/** The screens that differ once signed in. */
const SIGNED_IN_PAGES = ["/chat", "/settings", "/pricing", "/purchase-complete"];

let browser: Promise<Browser> | undefined;
/** One headless Chromium for all of pa11y's pages (a launch per page costs about a second). */
function pa11yBrowser(): Promise<Browser> {
  browser ??= puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  return browser;
}
test.afterAll(async () => {
  await (await browser)?.close();
  browser = undefined;
});

interface Issue {
  code: string;
  message: string;
  selector: string;
  runner?: string;
}

/**
 * pa11y's errors on `url` (warnings and notices are not failures, as in pa11y's CLI by default).
 * `ready` is a CSS selector pa11y waits for before testing, so client-rendered screens are tested
 * once drawn, not while loading.
 */
async function pa11yErrors(url: string, viewport: (typeof VIEWPORTS)[number], options: { cookie?: string; ready?: string } = {}): Promise<Issue[]> {
  const result = await pa11y(url, {
    runners: ["htmlcs"],
    standard: "WCAG2AA",
    includeWarnings: false,
    includeNotices: false,
    timeout: 60_000,
    viewport: { width: viewport.width, height: viewport.height, isMobile: "isMobile" in viewport, hasTouch: "hasTouch" in viewport },
    headers: options.cookie ? { Cookie: options.cookie } : {},
    actions: options.ready ? [`wait for element ${options.ready} to be visible`] : [],
    browser: await pa11yBrowser(),
  });
  return result.issues
    .filter((i) => i.type === "error")
    .map((i) => ({ code: i.code, message: i.message, selector: i.selector, runner: i.runner }));
}

/** axe's violations on `page` at `url`, once `ready` (if any) is visible. */
async function axeViolations(page: Page, url: string, ready?: string): Promise<{ id: string; targets: string[] }[]> {
  await page.goto(url);
  if (ready) await page.locator(ready).first().waitFor();
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

/** What each screen shows once drawn: pa11y tests after it is visible. */
function readySelector(path: string): string | undefined {
  if (path.startsWith("/chat")) return "textarea";
  if (path.startsWith("/settings")) return "main h1";
  if (path.startsWith("/share/")) return "[data-testid=shared-chat]";
  return undefined;
}

test.describe.configure({ timeout: 300_000 });

test("pa11y and axe find no errors on any page a visitor can open, desktop and phone", async ({ page }) => {
  const found: Record<string, unknown[]> = {};
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const path of VISITOR_PAGES) {
      const issues = await pa11yErrors(`${LOCAL}${path}`, viewport, { ready: readySelector(path) });
      if (issues.length) found[`pa11y ${path} (${viewport.name})`] = issues;
      const violations = await axeViolations(page, `${LOCAL}${path}`, readySelector(path));
      if (violations.length) found[`axe ${path} (${viewport.name})`] = violations;
    }
  }
  expect(found).toEqual({});
});

test("pa11y and axe find no errors on the signed-in screens and a shared chat, desktop and phone", async ({ page }) => {
  await signInOnLocalhost(page, `pa11y-${Date.now()}@example.com`);
  const session = (await page.context().cookies(LOCAL)).find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toBeTruthy();
  const cookie = `${session!.name}=${session!.value}`;

  // A share as the Share dialog makes it (lib/browser/share/client.ts): sealed here, ciphertext uploaded.
  const { ciphertext, fragmentKey } = await sealSnapshot({
    v: 1,
    title: "A shared chat",
    sharedAt: new Date().toISOString(),
    messages: [
      { role: "user", content: "What is a **passkey**?" },
      { role: "assistant", content: "A passkey is a key pair kept by your device:\n\n- the private key never leaves it\n- the site keeps the public key\n\n```js\nnavigator.credentials.get()\n```" },
    ],
  });
  const created = await page.request.post(`${LOCAL}/api/shares`, { data: { ciphertext: toBase64(ciphertext) }, headers: { Origin: LOCAL } });
  expect(created.status()).toBe(201);
  const link = shareLink(LOCAL, ((await created.json()) as { id: string }).id, fragmentKey);

  const found: Record<string, unknown[]> = {};
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const path of SIGNED_IN_PAGES) {
      const issues = await pa11yErrors(`${LOCAL}${path}`, viewport, { cookie, ready: readySelector(path) });
      if (issues.length) found[`pa11y ${path} signed in (${viewport.name})`] = issues;
      const violations = await axeViolations(page, `${LOCAL}${path}`, readySelector(path));
      if (violations.length) found[`axe ${path} signed in (${viewport.name})`] = violations;
    }
    const issues = await pa11yErrors(link, viewport, { ready: readySelector("/share/") });
    if (issues.length) found[`pa11y /share/<id> (${viewport.name})`] = issues;
    const violations = await axeViolations(page, link, readySelector("/share/"));
    if (violations.length) found[`axe /share/<id> (${viewport.name})`] = violations;
  }
  expect(found).toEqual({});
});
