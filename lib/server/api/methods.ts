import { api, type ApiRoute, type RouteName } from "@/lib/shared/api/contract";

// The methods each app/api route answers, derived from the contract; proxy.ts answers others with 405 and `Allow`.

const OUTSIDE_CONTRACT: ReadonlyArray<{ path: string; methods: readonly string[] }> = [
  { path: "/api/auth/{...nextauth}", methods: ["GET", "POST", "HEAD"] },
];

function servedByNextAuth(route: ApiRoute): boolean {
  return route.form === true || route === api.authCsrf;
}

type Segment = { kind: 0; text: string } | { kind: 1 } | { kind: 2 };

interface Entry {
  path: string;
  segments: Segment[];
  methods: Set<string>;
}

function parse(path: string): Segment[] {
  return path
    .split("/")
    .filter(Boolean)
    .map((part): Segment => (part.startsWith("{...") ? { kind: 2 } : part.startsWith("{") ? { kind: 1 } : { kind: 0, text: part }));
}

let cached: Entry[] | undefined;

export function routeMethodTable(): ReadonlyMap<string, ReadonlySet<string>> {
  return new Map(entries().map((e) => [e.path, e.methods]));
}

function entries(): Entry[] {
  if (cached) return cached;
  const byPath = new Map<string, Set<string>>();
  const add = (path: string, method: string) => {
    const set = byPath.get(path) ?? new Set<string>();
    set.add(method);
    byPath.set(path, set);
  };
  for (const route of Object.values(api) as ApiRoute[]) if (!servedByNextAuth(route)) add(route.path, route.method);
  for (const route of OUTSIDE_CONTRACT) for (const method of route.methods) add(route.path, method);
  cached = [...byPath].map(([path, methods]) => ({ path, segments: parse(path), methods }));
  return cached;
}

function rank(segments: Segment[], parts: string[]): number[] | null {
  const kinds: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 2) return parts.length > i ? [...kinds, 2] : null;
    if (i >= parts.length) return null;
    if (segment.kind === 0 && segment.text !== parts[i]) return null;
    kinds.push(segment.kind);
  }
  return parts.length === segments.length ? kinds : null;
}

function lessThan(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length > b.length;
}

/** The `Allow` value of the route serving `pathname`, or null. */
export function allowedMethods(pathname: string): string | null {
  const parts = pathname.split("/").filter(Boolean);
  let best: { entry: Entry; rank: number[] } | null = null;
  for (const entry of entries()) {
    const r = rank(entry.segments, parts);
    if (r && (!best || lessThan(r, best.rank))) best = { entry, rank: r };
  }
  if (!best) return null;
  const methods = new Set(best.entry.methods);
  if (methods.has("GET")) methods.add("HEAD");
  methods.add("OPTIONS");
  return ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => methods.has(m)).join(", ");
}

export interface RouteMatch {
  name: RouteName;
  params: Record<string, string>;
}

let byRoute: Map<string, { name: RouteName; params: string[] }> | undefined;

/** The contract route serving `method` on `pathname` as Next's routing would, or null. */
export function matchRoute(method: string, pathname: string): RouteMatch | null {
  byRoute ??= routesByMethodAndPath();
  const exact = byRoute.get(`${method} ${pathname}`);
  if (exact && exact.params.length === 0) return { name: exact.name, params: {} };
  // An empty segment (a trailing slash, "//") is Next's to redirect or refuse, never a route's.
  const parts = pathname.split("/").slice(1);
  if (parts.some((part) => part === "")) return null;
  let best: { entry: Entry; rank: number[] } | null = null;
  for (const entry of entries()) {
    const r = rank(entry.segments, parts);
    if (r && (!best || lessThan(r, best.rank))) best = { entry, rank: r };
  }
  if (!best) return null;
  const route = byRoute.get(`${method} ${best.entry.path}`);
  if (!route) return null;
  const params: Record<string, string> = {};
  let n = 0;
  for (let i = 0; i < best.entry.segments.length; i++) {
    if (best.entry.segments[i]!.kind !== 1) continue;
    try {
      params[route.params[n++]!] = decodeURIComponent(parts[i]!);
    } catch {
      return null;
    }
  }
  return { name: route.name, params };
}

function routesByMethodAndPath(): Map<string, { name: RouteName; params: string[] }> {
  return new Map(
    (Object.entries(api) as [RouteName, ApiRoute][])
      .filter(([, route]) => !servedByNextAuth(route))
      .map(([name, route]) => [`${route.method} ${route.path}`, { name, params: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) }]),
  );
}

export function methodNotAllowed(method: string, pathname: string): { allow: string } | null {
  const allow = allowedMethods(pathname);
  if (allow === null) return null;
  return allow.split(", ").includes(method.toUpperCase()) ? null : { allow };
}
