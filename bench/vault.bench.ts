/**
 * The vault in Chromium (docs/issues.md #8): unlock time by passphrase (Argon2id, the app's parameters), by
 * passkey (WebAuthn PRF on Chromium's virtual authenticator, then HKDF and the unwrap) and by a remembered
 * device (docs/issues.md #21: IndexedDB read, the share's HTTP round trip to this page's server, HKDF, two
 * AES-GCM unwraps), and the time to
 * decrypt and show a 1,000-chat history list and a 1,000-message chat. Each figure is reported with a
 * reference measured in the same page, interleaved, 3 rounds (SHA-256 of 16 MB): on a loaded machine
 * the ratio is steadier than the milliseconds.
 *
 *   npx tsx bench/vault.bench.ts [--port 5151]
 *
 * The page is a blank one served on http://localhost:<port> (WebAuthn needs a secure context and a host
 * name); the crypto is the same WebCrypto calls lib/browser/vault/crypto.ts makes, and hash-wasm's own bundle.
 */
import http from "node:http";
import path from "node:path";
import { chromium } from "@playwright/test";
import { ARGON2ID } from "../lib/browser/vault/crypto";

async function main() {
const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 5151;
const server = http.createServer((req, res) =>
  req.url === "/share" ? res.end(Buffer.alloc(32)) : res.end("<!doctype html><title>vault bench</title><ul id=l></ul>"),
);
await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu"],
});
const page = await browser.newPage();
await page.goto(`http://localhost:${port}/`);
// tsx (esbuild keepNames) wraps named functions in __name(); the page needs it too.
  await page.evaluate("globalThis.__name = (f) => f");
  await page.addScriptTag({ path: path.join(import.meta.dirname, "../node_modules/hash-wasm/dist/argon2.umd.min.js") });
const cdp = await page.context().newCDPSession(page);
await cdp.send("WebAuthn.enable");
await cdp.send("WebAuthn.addVirtualAuthenticator", {
  options: { protocol: "ctap2", ctap2Version: "ctap2_1", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, hasPrf: true },
});

// Fixtures in the page: a vault key, 1,000 sealed titles, 1,000 sealed messages, a passkey, wraps.
await page.evaluate(`window.benchArgon = ${JSON.stringify(ARGON2ID)}`);
  await page.addScriptTag({ path: path.join(import.meta.dirname, "vault-page.js") });
  await page.evaluate("window.benchReady");

const time = (name: string) =>
  page.evaluate(async (n) => {
    const b = (window as unknown as { bench: Record<string, () => Promise<void>> }).bench;
    const t0 = performance.now();
    await b[n]!();
    return performance.now() - t0;
  }, name);

const cases = ["passphrase", "passkey", "device", "list", "chat"];
const results: Record<string, { ms: number[]; ref: number[] }> = Object.fromEntries(cases.map((c) => [c, { ms: [], ref: [] }]));
await time("list"); // warm-up
for (let round = 0; round < 3; round++) {
  for (const c of cases) {
    results[c]!.ref.push(await time("reference"));
    results[c]!.ms.push(await time(c));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
console.log(`Argon2id: m = ${ARGON2ID.memoryKiB} KiB, t = ${ARGON2ID.iterations}, p = ${ARGON2ID.parallelism} (RFC 9106, docs/issues.md #21)`);
console.log("case        median ms   reference ms (SHA-256 of 16 MB)   ratio");
for (const c of cases) {
  const r = results[c]!;
  console.log(`${c.padEnd(11)} ${median(r.ms).toFixed(1).padStart(9)}   ${median(r.ref).toFixed(1).padStart(12)}                      ${(median(r.ms) / median(r.ref)).toFixed(2)}`);
}
await browser.close();
server.close();
}

void main();
