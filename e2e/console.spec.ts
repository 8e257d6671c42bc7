import { spawn, type ChildProcess } from "node:child_process";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { E2E_DATA_DIR, E2E_DEV_PORT } from "../playwright.config";
import { signInByEmail } from "./helpers/auth";

/**
 * docs/issues.md #13: a clean console on every page. Loads the spec's pages in Chromium against the production
 * build (the server playwright.config.ts starts) and against the development server (`npm run dev`,
 * started here on E2E_DEV_PORT, writing to .next/dev beside the production build), in the light and
 * the dark theme, as a visitor and signed in; fails on any console error, uncaught exception or
 * hydration warning (React's "did not match" / "hydrat…" texts, the dev overlay's error badge).
 */
const PAGES = ["/", "/chat", "/pricing", "/settings", "/signup", "/termsofservice", "/contact"];
const DEV_URL = `http://127.0.0.1:${E2E_DEV_PORT}`;
const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 4010);
const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 4025);
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.test`;

/** Console errors, page errors and hydration warnings seen by `page` since it was opened. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (msg) => {
    const text = msg.text();
    if (msg.type() === "error") problems.push(`console.error: ${text.slice(0, 500)}`);
    else if (msg.type() === "warning" && /hydrat|did not match|mismatch/i.test(text)) problems.push(`warning: ${text.slice(0, 500)}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message.slice(0, 500)}`));
  return problems;
}

/** Open every page in each of `themes` (both by default); expect no problem on any. */
async function checkPages(browser: Browser, baseURL: string, options: { signedIn: boolean; dev: boolean; themes?: readonly ("light" | "dark")[] }) {
  for (const colorScheme of options.themes ?? (["light", "dark"] as const)) {
    const context = await browser.newContext({ baseURL, colorScheme, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watchConsole(page);
    if (options.signedIn) await signInByEmail(page, unique(`console-${colorScheme}`));
    for (const path of PAGES) {
      problems.length = 0;
      await page.goto(path, { waitUntil: "load", timeout: options.dev ? 180_000 : 30_000 });
      // Bounded: without a timeout this waits up to the test's own limit when requests never pause (next dev under load).
      await page.waitForLoadState("networkidle", { timeout: 15_000 }).catch(() => undefined);
      // The theme is the system's: next-themes put the class on <html> before hydration.
      await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
      if (options.dev) {
        // Next's dev overlay shows an issue badge for errors it caught (hydration included).
        const issues = await page.evaluate(
          () => document.querySelector("nextjs-portal")?.shadowRoot?.querySelector("[data-issues]")?.textContent ?? "",
        );
        expect(issues, `dev overlay issues on ${path}`).toBe("");
      }
      expect(problems, `${options.dev ? "dev" : "production"} ${path} (${colorScheme}, ${options.signedIn ? "signed in" : "visitor"})`).toEqual([]);
    }
    await context.close();
  }
}

test.describe("production build", () => {
  test("every page loads without a console error or hydration warning, as a visitor", async ({ browser, baseURL }) => {
    await checkPages(browser, baseURL!, { signedIn: false, dev: false });
  });
  test("every page loads without a console error or hydration warning, signed in", async ({ browser, baseURL }) => {
    // Sign-in by e-mail, then every page in both themes: past 60 s on a busy 2-core machine (no error seen).
    test.slow();
    await checkPages(browser, baseURL!, { signedIn: true, dev: false });
  });
});

test.describe("development server (npm run dev)", () => {
  test.describe.configure({ timeout: 600_000 });
  let server: ChildProcess | null = null;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // As `npm run dev` runs it: server.mjs in development mode.
    server = spawn(process.execPath, ["server.mjs", "--dev", "-p", String(E2E_DEV_PORT), "-H", "127.0.0.1"], {
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "development",
        NEXT_TELEMETRY_DISABLED: "1",
        APP_URL: DEV_URL,
        DATA_DIR: `${E2E_DATA_DIR}-dev`,
        LLM_BASE_URL: `http://127.0.0.1:${LLM_PORT}/v1`,
        LLM_API_KEY: "test",
        DATABASE_URL: "",
        REDIS_URL: "",
        EMAIL_SERVER: `smtp://127.0.0.1:${SMTP_PORT}`,
        EMAIL_FROM: "Hush <no-reply@hush.test>",
      },
    });
    const deadline = Date.now() + 200_000;
    for (;;) {
      const ok = await fetch(`${DEV_URL}/api/me`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > deadline || server.exitCode !== null) throw new Error("the development server did not start");
      await new Promise((r) => setTimeout(r, 1000));
    }
    // next dev compiles a route at its first request: compile next-auth's before the signed-in test, so
    // the sign-in's 15 s wait measures the request and not a cold compile on a busy machine.
    await fetch(`${DEV_URL}/api/auth/csrf`).catch(() => undefined);
  });

  test.afterAll(() => {
    // The whole process group: the server and any worker of Next's.
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  });

  // Each page once per state, a theme each: the production build above checks both themes in both states, and
  // every first load here compiles its route, which on a loaded 2-core machine takes most of the time limit.
  test("every page loads without a console error or hydration warning, as a visitor (light theme)", async ({ browser }) => {
    await checkPages(browser, DEV_URL, { signedIn: false, dev: true, themes: ["light"] });
  });
  test("every page loads without a console error or hydration warning, signed in (dark theme)", async ({ browser }) => {
    await checkPages(browser, DEV_URL, { signedIn: true, dev: true, themes: ["dark"] });
  });
});
