/**
 * The vault in Chromium (issue 8): unlock time by passphrase (Argon2id, the app's parameters) and by
 * passkey (WebAuthn PRF on Chromium's virtual authenticator, then HKDF and the unwrap), and the time to
 * decrypt and show a 1,000-chat history list and a 1,000-message chat. Each figure is reported with a
 * reference measured in the same page, interleaved, 3 rounds (SHA-256 of 16 MB): on a loaded machine
 * the ratio is steadier than the milliseconds.
 *
 *   npx tsx bench/vault.bench.ts [--port 5151]
 *
 * The page is a blank one served on http://localhost:<port> (WebAuthn needs a secure context and a host
 * name); the crypto is the same WebCrypto calls lib/vault/crypto.ts makes, and hash-wasm's own bundle.
 */
import http from "node:http";
import path from "node:path";
import { chromium } from "@playwright/test";
import { ARGON2ID } from "../lib/vault/crypto";

async function main() {
const port = Number(process.argv[process.argv.indexOf("--port") + 1] || 5151);
const server = http.createServer((_req, res) => res.end("<!doctype html><title>vault bench</title><ul id=l></ul>"));
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
await page.evaluate(async (argon) => {
  const w = window as unknown as Record<string, unknown>;
  const subtle = crypto.subtle;
  const enc = new TextEncoder();
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const key = await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  const seal = async (k: CryptoKey, ad: string, text: string | Uint8Array) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(ad) }, k, typeof text === "string" ? enc.encode(text) : text));
    return { iv, ct };
  };
  const titles = [];
  for (let i = 0; i < 1000; i++) titles.push({ ad: `["hush",2,"title","u","c${i}"]`, ...(await seal(key, `["hush",2,"title","u","c${i}"]`, `Chat number ${i} about something worth remembering`)) });
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    const ad = `["hush",2,"content","u","c",${i},"${i % 2 ? "assistant" : "user"}"]`;
    messages.push({ ad, ...(await seal(key, ad, `Message ${i}: ${"lorem ipsum dolor sit amet ".repeat(i % 2 ? 24 : 4)}`)) });
  }
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hashwasm = (window as unknown as { hashwasm: { argon2id: (o: object) => Promise<Uint8Array> } }).hashwasm;
  const pass = await hashwasm.argon2id({ password: "bench passphrase", salt, parallelism: argon.parallelism, iterations: argon.iterations, memorySize: argon.memoryKiB, hashLength: 32, outputType: "binary" });
  const passWrap = await seal(await subtle.importKey("raw", pass, "AES-GCM", false, ["encrypt"]), "wrap", raw);
  const prfInput = crypto.getRandomValues(new Uint8Array(32));
  const cred = (await navigator.credentials.create({
    publicKey: {
      rp: { id: "localhost", name: "bench" },
      user: { id: new Uint8Array(8), name: "bench", displayName: "bench" },
      challenge: crypto.getRandomValues(new Uint8Array(32)),
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: { userVerification: "required", residentKey: "preferred" },
      extensions: { prf: { eval: { first: prfInput } } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential;
  const getPrf = async () => {
    const a = (await navigator.credentials.get({
      publicKey: {
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        allowCredentials: [{ type: "public-key", id: cred.rawId }],
        userVerification: "required",
        extensions: { prf: { eval: { first: prfInput } } } as AuthenticationExtensionsClientInputs,
      },
    })) as PublicKeyCredential;
    return new Uint8Array((a.getClientExtensionResults() as { prf: { results: { first: ArrayBuffer } } }).prf.results.first);
  };
  const hkdf = async (ikm: Uint8Array) =>
    subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info: enc.encode("hush vault passkey v2") }, await subtle.importKey("raw", ikm, "HKDF", false, ["deriveKey"]), { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const prfWrap = await seal(await hkdf(await getPrf()), "wrap", raw);
  const list = document.getElementById("l")!;
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const open = async (k: CryptoKey, x: { ad: string; iv: Uint8Array; ct: Uint8Array }) =>
    new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv: x.iv, additionalData: enc.encode(x.ad) }, k, x.ct));
  w.bench = {
    reference: async () => {
      const data = new Uint8Array(16 * 1024 * 1024);
      await subtle.digest("SHA-256", data);
    },
    passphrase: async () => {
      const k = await hashwasm.argon2id({ password: "bench passphrase", salt, parallelism: argon.parallelism, iterations: argon.iterations, memorySize: argon.memoryKiB, hashLength: 32, outputType: "binary" });
      await subtle.decrypt({ name: "AES-GCM", iv: passWrap.iv, additionalData: enc.encode("wrap") }, await subtle.importKey("raw", k, "AES-GCM", false, ["decrypt"]), passWrap.ct);
    },
    passkey: async () => {
      await subtle.decrypt({ name: "AES-GCM", iv: prfWrap.iv, additionalData: enc.encode("wrap") }, await hkdf(await getPrf()), prfWrap.ct);
    },
    list: async () => {
      const names = await Promise.all(titles.map((t) => open(key, t)));
      list.replaceChildren(...names.map((n) => Object.assign(document.createElement("li"), { textContent: n })));
      await frame();
    },
    chat: async () => {
      const texts = await Promise.all(messages.map((m) => open(key, m)));
      list.replaceChildren(...texts.map((n) => Object.assign(document.createElement("p"), { textContent: n })));
      await frame();
    },
  };
}, ARGON2ID);

const time = (name: string) =>
  page.evaluate(async (n) => {
    const b = (window as unknown as { bench: Record<string, () => Promise<void>> }).bench;
    const t0 = performance.now();
    await b[n]!();
    return performance.now() - t0;
  }, name);

const cases = ["passphrase", "passkey", "list", "chat"];
const results: Record<string, { ms: number[]; ref: number[] }> = Object.fromEntries(cases.map((c) => [c, { ms: [], ref: [] }]));
await time("list"); // warm-up
for (let round = 0; round < 3; round++) {
  for (const c of cases) {
    results[c]!.ref.push(await time("reference"));
    results[c]!.ms.push(await time(c));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
console.log(`Argon2id: m = ${ARGON2ID.memoryKiB} KiB, t = ${ARGON2ID.iterations}, p = ${ARGON2ID.parallelism} (OWASP)`);
console.log("case        median ms   reference ms (SHA-256 of 16 MB)   ratio");
for (const c of cases) {
  const r = results[c]!;
  console.log(`${c.padEnd(11)} ${median(r.ms).toFixed(1).padStart(9)}   ${median(r.ref).toFixed(1).padStart(12)}                      ${(median(r.ms) / median(r.ref)).toFixed(2)}`);
}
await browser.close();
server.close();
}

void main();
