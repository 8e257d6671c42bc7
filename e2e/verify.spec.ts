import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { referencesOf } from "../lib/server/build/verify";
import { sri384 } from "../lib/server/security/sri";
import { signInByEmail } from "./helpers/auth";

/**
 * docs/issues.md #21 part 5 against the production build (docs/verify.md): every script and stylesheet of
 * every page carries Subresource Integrity matching the file served, the browser loads them all, the
 * build manifest is served, and `npm run verify` passes against this server and fails once a proxy
 * in front of it changes one byte of one chunk.
 */

const PAGES = ["/", "/termsofservice", "/contact", "/privacy", "/pricing", "/chat", "/signup", "/appsignup", "/purchase-complete", "/purchase-failed", "/no-such-page"];
const unique = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;

/** Every script, stylesheet and preload of `html` has an integrity equal to the SHA-384 of what `get` serves for it. */
async function expectIntegrityOnAll(html: string, page: string, get: (url: string) => Promise<Buffer>): Promise<number> {
  const { references } = referencesOf(html);
  expect(references.filter((r) => r.kind === "script").length, `${page}: scripts`).toBeGreaterThan(0);
  expect(references.filter((r) => r.kind === "stylesheet").length, `${page}: stylesheets`).toBeGreaterThan(0);
  for (const ref of references) {
    expect(ref.integrity ?? `none on ${page}: ${ref.kind} ${ref.url}`, `${page}: ${ref.kind} ${ref.url} has integrity`).toMatch(/^sha384-/);
    expect(ref.integrity, `${page}: ${ref.url} integrity matches the file`).toBe(sri384(await get(ref.url)));
  }
  return references.length;
}

/** Subresource Integrity refusals Chromium prints to the console. */
function watchSri(page: import("@playwright/test").Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/integrity|digest/i.test(m.text())) seen.push(m.text());
  });
  page.on("requestfailed", (r) => {
    if (/integrity/i.test(r.failure()?.errorText ?? "")) seen.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  return seen;
}

test("every script and stylesheet of every page carries Subresource Integrity, and the browser accepts it", async ({ page, request }) => {
  const get = async (url: string) => Buffer.from(await (await request.get(url)).body());
  const sri = watchSri(page);
  for (const path of PAGES) {
    const response = await request.get(path);
    expect([200, 404], path).toContain(response.status());
    // Twice: the first render of a page after start-up too (lib/server/security/sri.ts wraps React's dispatcher).
    await expectIntegrityOnAll(await response.text(), path, get);
    await expectIntegrityOnAll(await (await request.get(path)).text(), path, get);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  // Signed in: the chat and the settings render per request with the user's state.
  await signInByEmail(page, unique("sri"));
  for (const path of ["/chat", "/settings"]) {
    const html = await (await page.request.get(path)).text();
    await expectIntegrityOnAll(html, `${path} (signed in)`, get);
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(sri).toEqual([]);
});

test("the build manifest is served with the source commit and every static file", async ({ request }) => {
  const response = await request.get("/.well-known/hush/manifest.json");
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as { format: string; commit: string; algorithm: string; files: Record<string, string> };
  expect(manifest.format).toBe("hush-build-manifest/1");
  expect(manifest.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(manifest.algorithm).toBe("sha384");
  const html = await (await request.get("/chat")).text();
  for (const ref of referencesOf(html).references) {
    expect(manifest.files[new URL(ref.url, "http://x").pathname], ref.url).toBe(ref.integrity);
  }
});

/** Run `npm run verify -- <origin>` (tsx directly); resolves with its exit code and output. */
function runVerify(origin: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile("npx", ["tsx", "scripts/verify.ts", origin], { timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

/**
 * A proxy in front of the app that flips the lowest bit of the first byte of `target` (a URL path)
 * and passes everything else through unchanged.
 */
async function tamperingProxy(appOrigin: string, target: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const app = new URL(appOrigin);
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: app.hostname, port: app.port, path: req.url, method: req.method, headers: { ...req.headers, host: app.host, "accept-encoding": "identity" } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          if (req.url?.split("?")[0] === target && body.length > 0) body[0] = body[0]! ^ 1;
          const headers = { ...answer.headers, "content-length": String(body.length) };
          delete headers["transfer-encoding"];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("npm run verify passes against this server and fails after one byte of one served chunk is changed", async ({ baseURL, request }) => {
  test.setTimeout(240_000);
  const good = await runVerify(baseURL!);
  expect(good.output).toMatch(/VERDICT: OK/);
  expect(good.code, good.output).toBe(0);

  // A chunk every visitor of /chat runs.
  const html = await (await request.get("/chat")).text();
  const chunk = referencesOf(html).references.find((r) => r.kind === "script")!.url;
  const original = Buffer.from(await (await request.get(chunk)).body());
  const proxy = await tamperingProxy(baseURL!, chunk);
  try {
    const bad = await runVerify(proxy.origin);
    expect(bad.code, bad.output).toBe(1);
    expect(bad.output).toContain(`MISMATCH ${chunk}: served bytes differ from the local build`);
    const changed = Buffer.from(original);
    changed[0] = changed[0]! ^ 1;
    expect(bad.output).toContain(`  local  ${sri384(original)}`);
    expect(bad.output).toContain(`  served ${sri384(changed)}`);
    expect(bad.output).toMatch(/VERDICT: MISMATCH\. 1 problem;/);
  } finally {
    await proxy.close();
  }
});
