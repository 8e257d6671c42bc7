import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Subresource Integrity for every script and stylesheet of Next's HTML (docs/verify.md).
 *
 * `experimental.sri` (next.config.ts) makes Next 16 put `integrity` on its own bootstrap scripts only:
 * the chunks of client components, which React preinits from the RSC payload, and the stylesheets
 * get none. Two steps close that gap, both filling in the SHA-384 of the file under `.next/static`:
 * - prerendered pages: `scripts/build-manifest.ts` rewrites their HTML after the build
 *   (`addIntegrity`);
 * - pages rendered per request: `installSriHook` (called by instrumentation.ts) wraps React's
 *   server-side `preinitScript` so each chunk script it emits carries its integrity, and registers
 *   the root layout's stylesheets and the page's segment scripts with their integrity before they
 *   render (React copies a preload's integrity onto the `<link rel="stylesheet">` or
 *   `<script async src>` of the same href).
 * Chunks the Turbopack runtime loads later in the browser (client navigation, lazy imports, workers)
 * get theirs from the page's chunk loader (lib/server/security/chunk-loader.ts).
 */

/** `sha384-<base64>` of `bytes`: the form of an `integrity` attribute. */
export function sri384(bytes: Uint8Array | string): string {
  return `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
}

/**
 * An integrity lookup over a build folder (`distDir`, e.g. `.next`): `src` is a URL path such as
 * `/_next/static/chunks/x.js` (a query string is ignored); returns its `sha384-…` or undefined for
 * anything not under `/_next/static/` or missing. Each file is hashed once.
 */
export function integrityLookup(distDir: string): (src: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  const root = path.resolve(distDir, "static");
  return (src: string) => {
    const clean = src.replace(/[?#].*$/, "");
    if (!clean.startsWith("/_next/static/")) return undefined;
    if (cache.has(clean)) return cache.get(clean);
    const file = path.resolve(root, decodeURIComponent(clean.slice("/_next/static/".length)));
    let value: string | undefined;
    if (file.startsWith(root + path.sep)) {
      try {
        value = sri384(fs.readFileSync(file));
      } catch {
        value = undefined;
      }
    }
    cache.set(clean, value);
    return value;
  };
}

const TAG = /<(script|link)\b[^>]*>/gi;

/**
 * `html` with `integrity="sha384-…"` added to every `<script src>` and every `<link>` with
 * `rel="stylesheet"`, or a `rel="preload"`/`"modulepreload"` of a script or style, whose URL is under
 * `/_next/static/` and which has no `integrity` yet. Other tags and the text are left byte for byte.
 */
export function addIntegrity(html: string, lookup: (src: string) => string | undefined): string {
  return html.replace(TAG, (tag: string, name: string) => {
    if (/\sintegrity\s*=/i.test(tag)) return tag;
    const isScript = name.toLowerCase() === "script";
    if (!isScript) {
      const rel = /\srel\s*=\s*"([^"]*)"/i.exec(tag)?.[1]?.toLowerCase() ?? "";
      const as = /\sas\s*=\s*"([^"]*)"/i.exec(tag)?.[1]?.toLowerCase() ?? "";
      const binds = rel === "stylesheet" || rel === "modulepreload" || (rel === "preload" && (as === "script" || as === "style"));
      if (!binds) return tag;
    }
    const url = new RegExp(`\\s${isScript ? "src" : "href"}\\s*=\\s*"([^"]*)"`, "i").exec(tag)?.[1];
    const integrity = url ? lookup(url.replace(/&amp;/g, "&")) : undefined;
    if (!integrity) return tag;
    const end = tag.endsWith("/>") ? tag.length - 2 : tag.length - 1;
    return `${tag.slice(0, end)} integrity="${integrity}"${tag.slice(end)}`;
  });
}

type Dispatcher = Record<string, ((...args: unknown[]) => unknown) | undefined>;

/**
 * The root layout's stylesheets, from the build's client reference manifests
 * (`entryCSSFiles["[project]/app/layout"]`, the same in every page's), as URL paths; [] when the
 * build has none or the format is not the one known here.
 */
function rootStylesheets(distDir: string): string[] {
  const pending = [path.join(distDir, "server", "app")];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.name.endsWith("_client-reference-manifest.js")) {
        const text = fs.readFileSync(full, "utf8");
        const at = text.indexOf('"entryCSSFiles"');
        const list = at >= 0 ? /"\[project\]\/app\/layout":(\[[^\]]*\])/.exec(text.slice(at))?.[1] : undefined;
        if (!list) continue;
        try {
          return (JSON.parse(list) as { path: string; inlined?: boolean }[]).filter((f) => !f.inlined).map((f) => `/_next/${f.path}`);
        } catch {
          return [];
        }
      }
    }
  }
  return [];
}

/**
 * The scripts Next renders as `<script async src>` elements for the segments of `page` (its layouts
 * and itself; `page` as Next's work store names it, e.g. `/(site)/settings/page`), from that page's
 * client reference manifest (`entryJSFiles`), as URL paths; [] when unknown.
 */
function segmentScripts(distDir: string, page: string): string[] {
  try {
    const text = fs.readFileSync(path.join(distDir, "server", "app", `${page}_client-reference-manifest.js`), "utf8");
    const at = text.indexOf('"entryJSFiles":');
    if (at < 0) return [];
    const start = at + '"entryJSFiles":'.length;
    const end = text.indexOf("}", start);
    const entries = JSON.parse(text.slice(start, end + 1)) as Record<string, string[]>;
    const parts = page.split("/").filter(Boolean).slice(0, -1);
    const keys = [`[project]/app${page}`, "[project]/app/layout"];
    for (let i = 1; i <= parts.length; i++) keys.push(`[project]/app/${parts.slice(0, i).join("/")}/layout`);
    return [...new Set(keys.flatMap((k) => entries[k] ?? []))].map((f) => `/_next/${f}`);
  } catch {
    return [];
  }
}

let installed = false;

/**
 * Wraps the server-side React DOM dispatcher of Next's App Router runtime (Turbopack production
 * build) so the HTML of pages rendered per request carries integrity on every chunk script and on
 * the root stylesheets. Returns whether the hook is in place: false in development or when the
 * runtime's shape is not the one known here (pages are then served as before, with Next's own SRI
 * on its bootstrap scripts; the e2e test of docs/verify.md fails, so an upgrade cannot lose it
 * silently). Idempotent.
 */
export function installSriHook(distDir: string = path.join(process.cwd(), ".next")): boolean {
  if (installed) return true;
  if (process.env.NODE_ENV !== "production") return false;
  let dispatcher: Dispatcher | undefined;
  try {
    const load = createRequire(path.join(process.cwd(), "package.json"));
    // The module Turbopack's server chunks load for App Router pages; one instance per process.
    const runtime = load("next/dist/compiled/next-server/app-page-turbo.runtime.prod.js") as {
      vendored?: { "react-ssr"?: { ReactDOM?: Record<string, { d?: Dispatcher } | undefined> } };
    };
    dispatcher = runtime.vendored?.["react-ssr"]?.ReactDOM?.__DOM_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE?.d;
  } catch {
    return false;
  }
  const preinitScript = dispatcher?.X;
  const preload = dispatcher?.L;
  if (!dispatcher || typeof preinitScript !== "function" || typeof preload !== "function") return false;
  let currentPage: () => string | undefined = () => undefined;
  try {
    const load = createRequire(path.join(process.cwd(), "package.json"));
    // Next's per-request work store (shared by its server chunks): names the page being rendered.
    const { workAsyncStorage } = load("next/dist/server/app-render/work-async-storage.external.js") as {
      workAsyncStorage?: { getStore(): { page?: string } | undefined };
    };
    if (workAsyncStorage) currentPage = () => workAsyncStorage.getStore()?.page;
  } catch {
    // Without it only the segment scripts go without integrity; the e2e test says so.
  }
  const lookup = integrityLookup(distDir);
  const pageScripts = new Map<string, { href: string; integrity: string }[]>();
  const withIntegrity = (hrefs: string[]) =>
    hrefs.map((href) => ({ href, integrity: lookup(href) })).filter((s): s is { href: string; integrity: string } => Boolean(s.integrity));
  const stylesheets = withIntegrity(rootStylesheets(distDir));
  dispatcher.X = function (this: unknown, src: unknown, options: unknown) {
    if (typeof src === "string") {
      const given = (options ?? {}) as Record<string, unknown>;
      // Before the first chunk script of a render (React dedupes repeats by href): React adopts a
      // preload's integrity when the <link rel="stylesheet"> or <script async src> of the same href
      // renders later, and then drops the preload itself. The root stylesheets, and the scripts
      // Next renders as elements for this page's segments.
      for (const sheet of stylesheets) preload.call(this, sheet.href, "style", { integrity: sheet.integrity });
      const page = currentPage();
      if (page) {
        let scripts = pageScripts.get(page);
        if (!scripts) pageScripts.set(page, (scripts = withIntegrity(segmentScripts(distDir, page))));
        for (const script of scripts) preload.call(this, script.href, "script", { integrity: script.integrity, nonce: given.nonce });
      }
      const integrity = lookup(src);
      if (integrity && given.integrity == null) options = { ...given, integrity };
    }
    return preinitScript.call(this, src, options);
  };
  installed = true;
  return true;
}
