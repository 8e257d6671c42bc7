import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Subresource Integrity for every script and stylesheet of Next's HTML (docs/verify.md). */

export function sri384(bytes: Uint8Array | string): string {
  return `sha384-${createHash("sha384").update(bytes).digest("base64")}`;
}

/** `src` → its `sha384-…`, or undefined outside `/_next/static/`. */
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

/** `html` with integrity on every `/_next/static/` script, stylesheet and script/style preload lacking one. */
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

/** Hook React's server dispatcher so per-request pages carry integrity; false when Next's runtime is unknown. */
export function installSriHook(distDir: string = path.join(process.cwd(), ".next")): boolean {
  if (installed) return true;
  if (process.env.NODE_ENV !== "production") return false;
  let dispatcher: Dispatcher | undefined;
  try {
    const load = createRequire(path.join(process.cwd(), "package.json"));
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
    const { workAsyncStorage } = load("next/dist/server/app-render/work-async-storage.external.js") as {
      workAsyncStorage?: { getStore(): { page?: string } | undefined };
    };
    if (workAsyncStorage) currentPage = () => workAsyncStorage.getStore()?.page;
  } catch {
  }
  const lookup = integrityLookup(distDir);
  const pageScripts = new Map<string, { href: string; integrity: string }[]>();
  const withIntegrity = (hrefs: string[]) =>
    hrefs.map((href) => ({ href, integrity: lookup(href) })).filter((s): s is { href: string; integrity: string } => Boolean(s.integrity));
  const stylesheets = withIntegrity(rootStylesheets(distDir));
  dispatcher.X = function (this: unknown, src: unknown, options: unknown) {
    if (typeof src === "string") {
      const given = (options ?? {}) as Record<string, unknown>;
      // React adopts a preload's integrity when the same href renders later.
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
