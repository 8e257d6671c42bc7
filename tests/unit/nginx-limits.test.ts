import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiJson } from "@/lib/server/openapi/document";

/**
 * deploy/nginx.conf's request size limits against the app's own (docs/issues.md #11: "request size limits matching
 * the app's"). Every operation of /api/openapi.json that reads a body declares its limit as
 * x-max-body-bytes; the location nginx would pick for that path must let at least that much through, or
 * a request the app accepts would die in the proxy with nginx's own 413 page.
 */

interface Location {
  kind: "=" | "~" | "prefix";
  pattern: string;
  maxBytes: number | null;
}

const CONF = readFileSync(path.join(process.cwd(), "deploy/nginx.conf"), "utf8").replace(/#.*$/gm, "");

function bytes(size: string): number {
  const m = /^(\d+)([kmg]?)$/i.exec(size.trim());
  if (!m) throw new Error(`Unreadable client_max_body_size ${size}`);
  const unit = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as "" | "k" | "m" | "g"];
  return Number(m[1]) * unit;
}

/** The body of the first block opened by `head` (balanced braces), without the head itself. */
function block(text: string, from: number): string {
  const open = text.indexOf("{", from);
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error("Unbalanced braces in nginx.conf");
}

/** The `http` level limit and the locations of the TLS server (the one that proxies to the app). */
function parse(): { httpMax: number; locations: Location[] } {
  const http = block(CONF, CONF.search(/\bhttp\s*\{/));
  const httpLevel = http.replace(/\bserver\s*\{[\s\S]*$/, "");
  const httpMax = bytes(/client_max_body_size\s+(\S+);/.exec(httpLevel)![1]!);
  const tlsAt = http.search(/listen\s+443/);
  const server = block(http, http.lastIndexOf("server", tlsAt));
  const locations: Location[] = [];
  const re = /location\s+(=|~)?\s*(\S+)\s*\{/g;
  for (let m = re.exec(server); m; m = re.exec(server)) {
    const body = block(server, m.index);
    const size = /client_max_body_size\s+(\S+);/.exec(body);
    locations.push({ kind: (m[1] as "=" | "~" | undefined) ?? "prefix", pattern: m[2]!, maxBytes: size ? bytes(size[1]!) : null });
  }
  return { httpMax, locations };
}

/** nginx's choice: an exact match, else the first matching regex, else the longest prefix. */
function pick(locations: Location[], uri: string): Location {
  const exact = locations.find((l) => l.kind === "=" && l.pattern === uri);
  if (exact) return exact;
  const regex = locations.find((l) => l.kind === "~" && new RegExp(l.pattern).test(uri));
  if (regex) return regex;
  const prefixes = locations.filter((l) => l.kind === "prefix" && uri.startsWith(l.pattern));
  prefixes.sort((a, b) => b.pattern.length - a.pattern.length);
  if (!prefixes[0]) throw new Error(`No nginx location serves ${uri}`);
  return prefixes[0];
}

type Doc = { paths: Record<string, Record<string, { "x-max-body-bytes"?: number }>> };

describe("deploy/nginx.conf body limits (docs/issues.md #11)", () => {
  const { httpMax, locations } = parse();
  const doc = JSON.parse(openApiJson().json) as Doc;
  const limited = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => typeof op["x-max-body-bytes"] === "number")
      .map(([method, op]) => ({ uri: p.replace(/\{[^}]+\}/g, "x"), method, max: op["x-max-body-bytes"]! })),
  );

  it("reads the file and finds the routes that take large bodies", () => {
    expect(httpMax).toBe(1024 ** 2);
    expect(limited.length).toBeGreaterThan(10);
    expect(limited.some((l) => l.max > httpMax)).toBe(true);
  });

  it.each(limited)("$method $uri: nginx lets $max bytes through", ({ uri, max }) => {
    const location = pick(locations, uri);
    expect(location.maxBytes ?? httpMax).toBeGreaterThanOrEqual(max);
  });

  it("keeps small routes at the small default (no location raises a limit no route needs)", () => {
    for (const location of locations.filter((l) => l.maxBytes !== null)) {
      const served = limited.filter((l) => pick(locations, l.uri) === location);
      expect(served.length, `${location.pattern} serves no limited route`).toBeGreaterThan(0);
      expect(Math.max(...served.map((s) => s.max))).toBeGreaterThan(httpMax);
    }
  });
});
