import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { api, type ApiRoute } from "@/lib/shared/api/contract";
import { matchRoute, routeMethodTable } from "@/lib/server/api/methods";
import { refusalFor } from "@/lib/server/request-guard";
import { proxy } from "@/proxy";

/**
 * docs/issues.md #22, "405 without Allow": every route of app/api answers a method it does not export with 405,
 * an `Allow` header naming its methods and a JSON `{ "error": ... }` body (proxy.ts, lib/server/api/methods.ts).
 * The expected methods are read from the route files themselves, so the table cannot drift from them.
 */
const root = path.join(__dirname, "../..");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Each app/api route file's pattern (`{param}`, `{...param}`) and the methods it exports. */
function routeFiles(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const source = readFileSync(full, "utf8");
        // `export const GET = …`, or the one-line form `export { GET, POST } from "…"` / `export { handler as GET } from "…"`.
        const declared = [...source.matchAll(/^export\s+(?:const|async function|function)\s+([A-Z]+)\b/gm)].map((m) => m[1]!);
        const reexported = [...source.matchAll(/^export\s*\{([^}]*)\}\s*from/gm)].flatMap((m) => m[1]!.split(",").map((n) => n.trim().split(/\s+as\s+/).at(-1)!));
        const exported = [...declared, ...reexported];
        const pattern = "/" + path.relative(path.join(root, "app"), dir).split(path.sep).map((s) => s.replace(/^\[(\.\.\.)?(.+)\]$/, "{$1$2}")).join("/");
        found.set(pattern, new Set(exported.filter((m) => METHODS.includes(m))));
      }
    }
  };
  walk(path.join(root, "app/api"));
  return found;
}

const files = routeFiles();

/** The Allow value a route file's exports call for: its methods, HEAD with GET, OPTIONS (Next answers it). */
function expectedAllow(methods: Set<string>): string {
  const all = new Set(methods);
  if (all.has("GET")) all.add("HEAD");
  all.add("OPTIONS");
  return METHODS.filter((m) => all.has(m)).join(", ");
}

/** The route file serving a contract path: its own, else next-auth's catch-all. */
function fileFor(route: ApiRoute): Set<string> {
  return files.get(route.path) ?? files.get("/api/auth/{...nextauth}")!;
}

/** A concrete URL path for a pattern. */
const concrete = (pattern: string) => pattern.replace(/\{\.\.\.[^}]+\}/, "session").replace(/\{[^}]+\}/g, "chat-1");

describe("405 with Allow on every API route", () => {
  it("the method table (lib/server/api/methods.ts) is exactly the route files' exports", () => {
    expect(files.size).toBeGreaterThan(25);
    const table = routeMethodTable();
    expect(new Set(table.keys())).toEqual(new Set(files.keys()));
    for (const [pattern, methods] of files) expect(table.get(pattern), pattern).toEqual(methods);
  });

  it("every contract route: each method it does not answer gets 405, Allow and { error }; its own methods pass", async () => {
    const routes = Object.values(api) as ApiRoute[];
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) {
      const exported = fileFor(route);
      const allow = expectedAllow(exported);
      const url = `http://localhost${concrete(route.path)}`;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = proxy(new NextRequest(url, { method }));
        if (exported.has(method)) {
          expect(res.status, `${method} ${route.path}`).not.toBe(405);
          continue;
        }
        expect(res.status, `${method} ${route.path}`).toBe(405);
        expect(res.headers.get("allow"), `${method} ${route.path}`).toBe(allow);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({ error: "Method not allowed." });
      }
    }
  });

  it("the routes outside the contract too (confidential relay, next-auth's catch-all), and not unknown paths", async () => {
    for (const [pattern, exported] of files) {
      const url = `http://localhost${concrete(pattern)}`;
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const res = proxy(new NextRequest(url, { method }));
        expect(res.status === 405, `${method} ${pattern}`).toBe(!exported.has(method));
        if (res.status === 405) expect(res.headers.get("allow")).toBe(expectedAllow(exported));
      }
    }
    // A path no route serves is Next's 404, whatever the method.
    expect(proxy(new NextRequest("http://localhost/api/nothing-here", { method: "DELETE" })).status).not.toBe(405);
  });

  it("a method Next cannot route (TRACE) is refused by the request guard with the route's own Allow", () => {
    expect(refusalFor("TRACE", "/api/me")).toEqual({ status: 405, error: "Method not allowed.", allow: "GET, HEAD, OPTIONS" });
    expect(refusalFor("TRACE", "/api/vault?x=1")?.allow).toBe("GET, HEAD, POST, PATCH, OPTIONS");
    expect(refusalFor("TRACE", "/")?.allow).toBe(METHODS.join(", "));
  });
});

describe("matchRoute: which contract route serves a request (the hot path's table)", () => {
  it("finds every contract route by its own method and path, params decoded", () => {
    for (const [name, route] of Object.entries(api) as [string, ApiRoute][]) {
      if (route.form || name === "authCsrf") continue; // next-auth's catch-all serves these
      const pathname = route.path.replace(/\{(\w+)\}/g, "a%20b");
      const match = matchRoute(route.method, pathname);
      expect(match?.name, `${route.method} ${route.path}`).toBe(name);
      for (const value of Object.values(match!.params)) expect(value).toBe("a b");
    }
  });

  it("prefers a static segment to a {param} one, as Next does, and refuses what Next would not route", () => {
    expect(matchRoute("POST", "/api/ns/chat_history/batch")?.name).toBe("chatHistoryBatch");
    // The static path wins, and it has no GET: not the {chatId} route.
    expect(matchRoute("GET", "/api/ns/chat_history/batch")).toBeNull();
    expect(matchRoute("GET", "/api/ns/chat_history/abc")).toEqual({ name: "chatHistoryGet", params: { chatId: "abc" } });
    expect(matchRoute("GET", "/api/ns/chat_history/abc/more")).toBeNull();
    expect(matchRoute("POST", "/api/ns/chat/")).toBeNull();
    expect(matchRoute("POST", "/api//ns/chat")).toBeNull();
    expect(matchRoute("GET", "/api/ns/chat_history/%FF")).toBeNull();
    expect(matchRoute("GET", "/api/ns/chat")).toBeNull();
  });

  it("marks exactly the chat turns, the relay, the sealed save and the history reads as fast", () => {
    const fast = (Object.entries(api) as [string, ApiRoute][]).filter(([, r]) => r.fastPath).map(([name]) => name);
    expect(fast.sort()).toEqual(["chatHistoryBatch", "chatHistoryGet", "chatHistoryList", "chatSave", "chatSignedIn", "chatVisitor", "confidentialChat"]);
  });
});
