import http from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { E2E_QUOTA_APP_PORT, E2E_QUOTA_LIMIT } from "../playwright.config";
import { signInByEmail } from "./helpers/auth";

/**
 * docs/issues.md #10 against the production build: the Content-Security-Policy is enforced on every page with
 * no violation while the app still works (chat, sign-in), API responses carry their own policy and
 * no-store, and forwarded headers from an untrusted client change neither the visitor quota nor the
 * pricing country (the small-quota instance trusts no proxy; the main one trusts 127.0.0.1).
 */
const SCREENS = "test-results/screens";
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

/** Collect CSP violations (the event and the console line Chromium prints) on `page`. */
async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction("__reportCsp", (line: string) => seen.push(line));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportCsp: (l: string) => void }).__reportCsp(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

function scriptSources(policy: string): string {
  return policy.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
}

function expectStrictPagePolicy(policy: string | null, path: string) {
  expect(policy, path).toBeTruthy();
  const scripts = scriptSources(policy!);
  expect(scripts, path).not.toContain("'unsafe-inline'");
  expect(scripts, path).not.toContain("'unsafe-eval'");
  expect(scripts, path).toMatch(/'nonce-|'sha256-/);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'", "connect-src 'self'"]) {
    expect(policy, `${path}: ${directive}`).toContain(directive);
  }
}

const PAGES = ["/", "/termsofservice", "/contact", "/privacy", "/pricing", "/chat", "/signup", "/appsignup", "/settings", "/purchase-complete", "/purchase-failed", "/no-such-page"];

test("every page is served under an enforced strict CSP and loads without a violation", async ({ page }) => {
  const violations = await watchCsp(page);
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response, path).not.toBeNull();
    expect(response!.headers()["content-security-policy-report-only"], path).toBeUndefined();
    expectStrictPagePolicy(response!.headers()["content-security-policy"] ?? null, path);
    await page.waitForLoadState("networkidle");
    expect(violations, path).toEqual([]);
  }
  // The watch works: an injected inline script is refused and reported.
  await page.goto("/");
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = 1";
    document.body.append(script);
  });
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  violations.length = 0;
  await page.goto("/chat");
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.__injected = 1";
    document.body.append(script);
  });
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

  // Static pages keep being served as built: hashes, no per-request nonce.
  const home = await page.request.get("/");
  expect(scriptSources(home.headers()["content-security-policy"]!)).toContain("'sha256-");
  expect(scriptSources(home.headers()["content-security-policy"]!)).not.toContain("'nonce-");
  // Pages rendered per request get a fresh nonce each time.
  const a = scriptSources((await page.request.get("/chat")).headers()["content-security-policy"]!);
  const b = scriptSources((await page.request.get("/chat")).headers()["content-security-policy"]!);
  expect(a).toMatch(/'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(a).not.toBe(b);
});

test("under the CSP the chat answers and e-mail sign-in works", async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto("/chat");
  const input = page.getByPlaceholder("Message GPT");
  await input.fill("Does the policy let me chat?");
  await input.press("Enter");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText("Does the policy let me chat?");
  await page.screenshot({ path: `${SCREENS}/csp-chat-desktop.png` });
  await signInByEmail(page, unique("csp"));
  await expect(page).toHaveURL(/\/chat$/);
  await page.goto("/settings");
  await page.waitForLoadState("networkidle");
  expect(violations).toEqual([]);
});

test("API responses: their own CSP, and no-store on everything that carries a message", async ({ request }) => {
  const country = await request.get("/api/get-country");
  expect(country.headers()["content-security-policy"]).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  const body = { messages: [{ role: "user", content: "headers please" }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: false };
  const json = await request.post("/api/ns/chat", { data: body });
  expect(json.status()).toBe(200);
  expect(json.headers()["cache-control"]).toContain("no-store");
  expect(json.headers()["content-security-policy"]).toContain("default-src 'none'");
  const sse = await request.post("/api/ns/chat", { data: body, headers: { Accept: "text/event-stream" } });
  expect(sse.status()).toBe(200);
  expect(sse.headers()["cache-control"]).toContain("no-store");
  const history = await request.get("/api/ns/chat_history");
  expect(history.headers()["content-security-policy"]).toContain("default-src 'none'");
});

/** A request to the small-quota instance from the loopback address `from` (a fresh TCP peer). */
function fromPeer(from: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: E2E_QUOTA_APP_PORT, path, method: init.method ?? "GET", headers: init.headers, localAddress: from },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

test("an untrusted client rotating X-Forwarded-For neither escapes the visitor quota nor picks its country", async ({ request }) => {
  // A loopback source address of its own, so no other test has used its quota.
  const peer = `127.0.${Math.floor(Math.random() * 200) + 20}.${Math.floor(Math.random() * 250) + 2}`;
  const body = JSON.stringify({ messages: [{ role: "user", content: "hi" }], model: "llama3-8b-8192", file: null, chat_id: null, save_chat: false });
  const statuses: number[] = [];
  for (let i = 0; i < E2E_QUOTA_LIMIT + 2; i++) {
    const res = await fromPeer(peer, "/api/ns/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i + 1}`, "x-hush-peer-address": `203.0.113.${i + 1}` },
      body,
    });
    statuses.push(res.status);
  }
  expect(statuses).toEqual([...Array<number>(E2E_QUOTA_LIMIT).fill(200), 429, 429]);

  // The pricing country: the quota instance trusts no proxy, so forged headers are ignored.
  const forged = await fromPeer(peer, "/api/get-country", { headers: { "x-forwarded-for": "203.97.1.1", "cf-ipcountry": "NZ" } });
  expect(JSON.parse(forged.body)).toEqual({ country_code: "US" });
  // The main instance trusts 127.0.0.1 (TRUSTED_PROXIES, as behind nginx): there the header counts.
  const trusted = await request.get("/api/get-country", { headers: { "x-forwarded-for": "203.97.1.1" } });
  expect(await trusted.json()).toEqual({ country_code: "NZ" });
});

test("the landing page served from memory (lib/server/static-landing.ts) is Next's own answer for it", async ({ request }) => {
  // `/?via=next` is the same prerendered page served by Next itself (the hot path answers only a bare `/`).
  // The headers a browser acts on (security, caching, type, encoding); Next's own x-nextjs-* markers are left out.
  const compared = [
    "content-security-policy",
    "strict-transport-security",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "permissions-policy",
    "cache-control",
    "content-type",
    "content-encoding",
    "vary",
  ];
  const comparable = (headers: Record<string, string>) => Object.fromEntries(compared.map((name) => [name, headers[name] ?? null]));
  for (const encoding of ["identity", "gzip", "gzip, deflate, br"]) {
    const ours = await request.get("/", { headers: { "accept-encoding": encoding } });
    const next = await request.get("/?via=next", { headers: { "accept-encoding": encoding } });
    expect(ours.status(), encoding).toBe(200);
    expect(comparable(ours.headers()), encoding).toEqual(comparable(next.headers()));
    expect((await ours.body()).equals(await next.body()), encoding).toBe(true);
  }
  const head = await request.head("/");
  expect(head.status()).toBe(200);
  expect(head.headers()["content-security-policy"]).toContain("'sha256-");
});
