import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/issues.md #10, secrets inventory: docs/security.md names every secret setting lib/server/config-env.ts reads (so a
 * new one cannot be added without saying where it lives and how it rotates), has the threat model and
 * the reporting section, and the README links it.
 */
const root = path.join(__dirname, "../..");
const doc = readFileSync(path.join(root, "docs/security.md"), "utf8");

describe("docs/security.md", () => {
  it("names every secret or key setting of lib/server/config-env.ts", () => {
    const config = readFileSync(path.join(root, "lib/server/config-env.ts"), "utf8");
    const secrets = [...config.matchAll(/^\s+([A-Z][A-Z0-9_]*(?:SECRET|_KEY)[A-Z0-9_]*):/gm)].map((m) => m[1]!);
    expect(secrets).toEqual(expect.arrayContaining(["NEXTAUTH_SECRET", "STRIPE_WEBHOOK_SECRET", "AUTH_SYNC_SECRET"]));
    for (const name of secrets) expect(doc, name).toContain(name);
  });

  it("covers the keys that are not settings: sessions, quota salts, vault keys", () => {
    for (const term of ["session tokens", "quota salts", "vault key", "vault wrapping keys"]) expect(doc).toContain(term);
  });

  it("has the threat model for each attacker and the reporting section", () => {
    for (const heading of ["## Reporting a vulnerability", "## Secrets and keys", "## Threat model"]) expect(doc).toContain(heading);
    for (const attacker of ["With a copy of the database", "With the server", "With a session cookie", "With the user's device"]) {
      expect(doc).toContain(`**${attacker}`);
    }
  });

  it("has the ASVS 5.0 table: 17 chapters, each passing or not applicable, citing files that exist (docs/issues.md #22)", () => {
    const section = doc.slice(doc.indexOf("## OWASP ASVS 5.0 Level 2, chapter by chapter"));
    const rows = [...section.matchAll(/^\| (V\d+) [^|]+\| ([^|]+) \|[^|]+\| ([^|]+) \|$/gm)].map((m) => ({ chapter: m[1]!, status: m[2]!.trim(), evidence: m[3]! }));
    expect(rows.map((r) => r.chapter)).toEqual(Array.from({ length: 17 }, (_, i) => `V${i + 1}`));
    for (const row of rows) {
      expect(["Passes", "Not applicable"], row.chapter).toContain(row.status);
      const files = [...row.evidence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      if (row.status === "Passes") expect(files.length, row.chapter).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(path.join(root, file)), `${row.chapter}: ${file}`).toBe(true);
    }
  });

  it("is linked from the README", () => {
    expect(readFileSync(path.join(root, "README.md"), "utf8")).toContain("(docs/security.md)");
  });
});
