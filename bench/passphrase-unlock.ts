/**
 * Passphrase unlock time at today's Argon2id parameters against the old ones (docs/issues.md #21), in Chromium, on
 * this machine as it is and on a mid-range phone profile: the CPU slowed 4× through the DevTools protocol
 * (`Emulation.setCPUThrottlingRate`, rate 4, Lighthouse's mobile setting). One unlock is what the browser
 * does with a stored wrap: Argon2id of the passphrase (hash-wasm's own bundle, as the app loads it), import of
 * the result as an AES-256-GCM key, and the unwrap of the 32-byte vault key. Interleaved old/new, 3 rounds,
 * medians; a warm-up of each first.
 *
 *   npx tsx bench/passphrase-unlock.ts [--port 5152] [--rounds 3]
 */
import http from "node:http";
import path from "node:path";
import { chromium } from "@playwright/test";
import { ARGON2ID, type Argon2Params } from "../lib/shared/vault/argon2-params";

/** Before docs/issues.md #21: OWASP's first Argon2id option. */
const OLD: Argon2Params = { memoryKiB: 47104, iterations: 1, parallelism: 1 };
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};

async function main() {
  const port = arg("port", 5152);
  const rounds = arg("rounds", 3);
  const server = http.createServer((_req, res) => res.end("<!doctype html><title>passphrase unlock bench</title>"));
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

  // In the page: a vault key wrapped under each parameter set, and `unlock(name)` timing one unlock.
  await page.evaluate(
    async ({ sets }) => {
      const w = window as unknown as {
        hashwasm: { argon2id(o: object): Promise<Uint8Array> };
        wraps: Record<string, { salt: Uint8Array; iv: Uint8Array; ct: ArrayBuffer; p: { memoryKiB: number; iterations: number; parallelism: number } }>;
      };
      const derive = (salt: Uint8Array, p: { memoryKiB: number; iterations: number; parallelism: number }) =>
        w.hashwasm.argon2id({ password: "violet lanterns drift over quiet harbours", salt, parallelism: p.parallelism, iterations: p.iterations, memorySize: p.memoryKiB, hashLength: 32, outputType: "binary" });
      const raw = crypto.getRandomValues(new Uint8Array(32));
      w.wraps = {};
      for (const [name, p] of Object.entries(sets)) {
        const salt = crypto.getRandomValues(new Uint8Array(16));
        const iv = crypto.getRandomValues(new Uint8Array(12));
        const key = await crypto.subtle.importKey("raw", (await derive(salt, p)) as BufferSource, "AES-GCM", false, ["encrypt"]);
        w.wraps[name] = { salt, iv, p, ct: await crypto.subtle.encrypt({ name: "AES-GCM", iv: iv as BufferSource }, key, raw) };
      }
    },
    { sets: { old: OLD, new: { ...ARGON2ID } } },
  );
  const unlock = (name: string) =>
    page.evaluate(async (n) => {
      const w = window as unknown as {
        hashwasm: { argon2id(o: object): Promise<Uint8Array> };
        wraps: Record<string, { salt: Uint8Array; iv: Uint8Array; ct: ArrayBuffer; p: { memoryKiB: number; iterations: number; parallelism: number } }>;
      };
      const { salt, iv, ct, p } = w.wraps[n]!;
      const t0 = performance.now();
      const hash = await w.hashwasm.argon2id({ password: "violet lanterns drift over quiet harbours", salt, parallelism: p.parallelism, iterations: p.iterations, memorySize: p.memoryKiB, hashLength: 32, outputType: "binary" });
      const key = await crypto.subtle.importKey("raw", hash as BufferSource, "AES-GCM", false, ["decrypt"]);
      const opened = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: iv as BufferSource }, key, ct));
      if (opened.length !== 32) throw new Error("unwrap failed");
      return performance.now() - t0;
    }, name);

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`old: Argon2id m = ${OLD.memoryKiB} KiB, t = ${OLD.iterations}, p = ${OLD.parallelism}`);
  console.log(`new: Argon2id m = ${ARGON2ID.memoryKiB} KiB, t = ${ARGON2ID.iterations}, p = ${ARGON2ID.parallelism}`);
  for (const rate of [1, 4]) {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate });
    await unlock("old");
    await unlock("new");
    const ms: Record<string, number[]> = { old: [], new: [] };
    for (let round = 0; round < rounds; round++) {
      // Interleaved, the order alternating, so a change in the machine's load falls on both.
      for (const name of round % 2 ? ["new", "old"] : ["old", "new"]) ms[name]!.push(await unlock(name));
    }
    const profile = rate === 1 ? "this machine (no throttling)" : `phone profile (CPU ${rate}× slower)`;
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    console.log(
      `${profile}: unlock old ${median(ms.old!).toFixed(0)} ms (${fmt(ms.old!)}), new ${median(ms.new!).toFixed(0)} ms (${fmt(ms.new!)}), ` +
        `×${(median(ms.new!) / median(ms.old!)).toFixed(2)}`,
    );
  }
  await browser.close();
  server.close();
}

void main();
