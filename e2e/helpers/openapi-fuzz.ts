/**
 * A property-based API fuzzer driven by the OpenAPI document (docs/issues.md #22, "Re-run schemathesis (or an
 * equivalent fuzzer) from the OpenAPI document in CI on a short budget"). Schemathesis is a Python tool
 * and this machine has only the npm registry and Debian's packages, so this does its default checks in
 * TypeScript, with json-schema-faker generating the values from each operation's schemas:
 * - not_a_server_error: no 5xx;
 * - status_code_conformance: every status is one the operation documents;
 * - content_type_conformance: an error answer is JSON `{ "error": string }`;
 * - unsupported_method: a method the document does not list for a path is 405 with an `Allow` header
 *   naming exactly the documented methods.
 * Cases per operation: valid (generated from the schemas), and the schemathesis negative mutations:
 * a required property dropped, a property of the wrong type, an unknown property, a body that is not
 * JSON. Path parameters are generated from their schemas too. Deterministic for a seed.
 */
import { dereference } from "@readme/openapi-parser";
import type { JsonSchema } from "json-schema-faker";
import { prng } from "./prng";

type Schema = JsonSchema & { type?: string | string[]; properties?: Record<string, Schema>; required?: string[] };
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, unknown>;
}
type Doc = { paths: Record<string, Record<string, Operation>> };

const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"] as const;

export interface FuzzCase {
  operation: string;
  kind: "valid" | "missing-required" | "wrong-type" | "unknown-property" | "not-json" | "unsupported-method";
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Statuses the document allows for this case; for unsupported-method, 405 only. */
  allowed: Set<number>;
  /** For unsupported-method: the methods `Allow` must name. */
  allow?: string[];
}

export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * The cases for every operation of `document` (the JSON of GET /api/openapi.json): `perOperation` valid
 * cases and one of each negative mutation where the operation has a JSON body, plus every undocumented
 * method of every path. `origin` goes in Origin (so same-origin checks pass and the handlers are reached).
 */
export async function fuzzCases(
  document: unknown,
  options: {
    seed: number;
    perOperation: number;
    origin: string;
    /** The methods a path's route file really answers, where that is more than the document lists. */
    routeMethods?: (path: string) => string[] | undefined;
  },
): Promise<FuzzCase[]> {
  const doc = (await dereference(structuredClone(document) as never)) as unknown as Doc;
  // json-schema-faker is ESM only; Playwright loads specs as CommonJS.
  const { createGeneratorSync } = await import("json-schema-faker");
  const random = prng(options.seed);
  const faker = createGeneratorSync({ seed: options.seed, maxItems: 3, maxLength: 64, optionalsProbability: 0.5 });
  const gen = (schema: Schema | undefined): unknown => (schema ? faker.generate(schema) : undefined);
  const cases: FuzzCase[] = [];
  const headers = (json: boolean): Record<string, string> => ({ origin: options.origin, ...(json ? { "content-type": "application/json" } : {}) });
  for (const [template, item] of Object.entries(doc.paths)) {
    const documented = METHODS.filter((m) => item[m]);
    for (const method of documented) {
      const op = item[method]!;
      const allowed = new Set(Object.keys(op.responses).filter((s) => /^\d{3}$/.test(s)).map(Number));
      const name = `${method.toUpperCase()} ${template}`;
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      const url = () => {
        let p = template.replace(/\{(\w+)\}/g, (_, param: string) => {
          const schema = op.parameters?.find((x) => x.in === "path" && x.name === param)?.schema;
          return encodeURIComponent(String(gen(schema) ?? "x"));
        });
        const query = (op.parameters ?? []).filter((x) => x.in === "query" && (x.required || random() < 0.5));
        if (query.length) p += "?" + query.map((q) => `${encodeURIComponent(q.name)}=${encodeURIComponent(String(gen(q.schema)))}`).join("&");
        return p;
      };
      const push = (kind: FuzzCase["kind"], body: unknown, raw = false) =>
        cases.push({ operation: name, kind, method: method.toUpperCase(), path: url(), headers: headers(body !== undefined), body: body === undefined ? undefined : raw ? String(body) : JSON.stringify(body), allowed });
      for (let i = 0; i < options.perOperation; i++) push("valid", bodySchema ? gen(bodySchema) : undefined);
      if (bodySchema && bodySchema.type === "object") {
        const valid = (gen(bodySchema) ?? {}) as Record<string, unknown>;
        const required = bodySchema.required ?? [];
        if (required.length) {
          const drop = required[Math.floor(random() * required.length)]!;
          const rest = { ...valid };
          delete rest[drop];
          push("missing-required", rest);
        }
        const keys = Object.keys(bodySchema.properties ?? {});
        if (keys.length) {
          const key = keys[Math.floor(random() * keys.length)]!;
          const type = bodySchema.properties![key]!.type;
          push("wrong-type", { ...valid, [key]: type === "string" ? 12345 : "not-a-" + String(type ?? "value") });
        }
        push("unknown-property", { ...valid, hush_fuzz_unknown: true });
        push("not-json", "{not json", true);
      }
    }
    // Every other method: 405 with Allow naming exactly the documented ones (HEAD is answered wherever GET is).
    const allow = options.routeMethods?.(template) ?? documented.map((m) => m.toUpperCase());
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      if (allow.includes(method)) continue;
      cases.push({ operation: `${method} ${template}`, kind: "unsupported-method", method, path: template.replace(/\{\w+\}/g, "x"), headers: headers(false), allowed: new Set([405]), allow });
    }
  }
  return cases;
}

/** What is wrong with `answer` to `c` by the checks above, or null. */
export function checkAnswer(c: FuzzCase, answer: FuzzAnswer): string | null {
  const where = `${c.kind} ${c.method} ${c.path} → ${answer.status}`;
  if (answer.status >= 500) return `${where}: a server error: ${answer.body.slice(0, 200)}`;
  if (!c.allowed.has(answer.status)) return `${where}: status not documented for ${c.operation} (${[...c.allowed].join(", ")})`;
  if (c.kind === "unsupported-method") {
    const allow = String(answer.headers["allow"] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const expected = new Set([...c.allow!, ...(c.allow!.includes("GET") ? ["HEAD"] : [])]);
    const named = new Set(allow.filter((m) => m !== "OPTIONS"));
    if (!allow.length) return `${where}: 405 without Allow`;
    if ([...expected].some((m) => !named.has(m)) || [...named].some((m) => !expected.has(m))) return `${where}: Allow "${allow.join(", ")}" is not ${[...expected].join(", ")}`;
  }
  if (answer.status >= 400 && c.method !== "HEAD") {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${where}: error body is not JSON: ${answer.body.slice(0, 120)}`;
    }
    if (!body || typeof body !== "object" || typeof (body as { error?: unknown }).error !== "string") return `${where}: error body is not { error: string }`;
  }
  return null;
}
