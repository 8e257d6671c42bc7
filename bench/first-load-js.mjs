#!/usr/bin/env node
/**
 * First-load JavaScript of a page (issue "Quality bars": aim at most 80 KB gzipped for /): the script
 * files its prerendered HTML references, fetched from a running production server and gzipped here.
 * noModule scripts (legacy polyfills modern browsers skip) are listed but not counted. Chunks holding the
 * app's own client components are marked "app"; the rest is Next.js and React.
 *
 *   node bench/first-load-js.mjs [--base http://127.0.0.1:3200] [--path /]
 */
import { brotliCompressSync, gzipSync } from "node:zlib";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const base = (args.base ?? "http://127.0.0.1:3200").replace(/\/+$/, "");
const path = args.path ?? "/";
/** Names of this app's client components, to tell its chunks from the framework's. */
const appMarkers = ["IndustrySelector", "MobileMenu"];

const html = await (await fetch(base + path)).text();
const tags = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
const external = tags
  .map((attrs) => ({ src: /\bsrc="([^"]+)"/.exec(attrs)?.[1], noModule: /\bnoModule\b/i.test(attrs) }))
  .filter((t) => t.src);
const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);

const kb = (n) => (n / 1024).toFixed(1).padStart(7);
let total = { raw: 0, gz: 0, br: 0 };
console.log(`First-load JavaScript of ${base}${path}\n`);
console.log("     raw KB   gzip KB  brotli KB  file");
for (const { src, noModule } of external) {
  const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
  const gz = gzipSync(body, { level: 9 }).length;
  const br = brotliCompressSync(body).length;
  const text = body.toString("utf8");
  const tag = noModule ? "nomodule, not counted" : appMarkers.filter((m) => text.includes(m)).join("+") || "framework";
  console.log(`${kb(body.length)}  ${kb(gz)}  ${kb(br)}    ${src}  (${tag})`);
  if (!noModule) total = { raw: total.raw + body.length, gz: total.gz + gz, br: total.br + br };
}
console.log(`${kb(total.raw)}  ${kb(total.gz)}  ${kb(total.br)}    TOTAL script files (module scripts)`);
// --json <file>: the totals in KB, for bench/all-goals.mjs.
if (args.json) (await import("node:fs")).writeFileSync(args.json, JSON.stringify({ path, rawKB: total.raw / 1024, gzipKB: total.gz / 1024, brotliKB: total.br / 1024 }));
const inlineBytes = Buffer.from(inline.join(""));
console.log(
  `${kb(inlineBytes.length)}  ${kb(gzipSync(inlineBytes, { level: 9 }).length)}  ${kb(brotliCompressSync(inlineBytes).length)}` +
    `    inline scripts (the RSC payload and JSON-LD: data, part of the HTML document)`,
);
