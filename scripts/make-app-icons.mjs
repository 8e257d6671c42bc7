/**
 * Writes public/icons/icon-192.png, icon-512.png and icon-maskable-512.png from app/icon.svg with Playwright's
 * Chromium. Run again when app/icon.svg changes; the PNGs are committed.
 */
import { readFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const svg = readFileSync(new URL("../app/icon.svg", import.meta.url), "utf8");
const lock =
  '<path d="M9 11V9.5a3 3 0 0 1 6 0V11" fill="none" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/><rect x="8" y="11" width="8" height="6" rx="1.6" fill="#fff"/>';
// Maskable: the lock sits well inside the safe zone.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" fill="#6425f0"/><g transform="translate(12 13) scale(1.1) translate(-12 -13)">${lock}</g></svg>`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage();
for (const [file, source, size] of [
  ["icon-192.png", svg, 192],
  ["icon-512.png", svg, 512],
  ["icon-maskable-512.png", maskable, 512],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${source.replace("<svg ", `<svg width="${size}" height="${size}" `)}</body></html>`);
  await page.screenshot({ path: `public/icons/${file}`, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}
await browser.close();
