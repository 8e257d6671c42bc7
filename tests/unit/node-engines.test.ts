import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { engines: { node: string } };

/**
 * Installed packages whose `engines.node` excludes the oldest Node.js this project supports, each with why
 * that is harmless (README "Quick start"). Anything new here must be justified or the minimum raised.
 */
const NEVER_LOADED: Record<string, string> = {
  "@prisma/streams-local": "part of @prisma/dev, which only the `prisma dev` command loads; Hush never runs it",
};

/** Every installed package.json under node_modules, nested copies included. */
function installedPackages(dir: string, out: { name: string; engines?: { node?: string } }[] = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith(".")) continue;
    const full = path.join(dir, entry);
    if (entry.startsWith("@")) {
      installedPackages(full, out);
      continue;
    }
    const manifest = path.join(full, "package.json");
    if (fs.existsSync(manifest)) {
      out.push(JSON.parse(fs.readFileSync(manifest, "utf8")));
      installedPackages(path.join(full, "node_modules"), out);
    }
  }
  return out;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".") || entry.name === "generated") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.(ts|tsx|mjs|cjs|js)$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe("the Node.js versions the project says it supports (package.json engines)", () => {
  // The oldest release of each supported line: "^20.19.0 || ^22.13.0 || ^24.0.0" gives 20.19.0, 22.13.0, 24.0.0.
  const floors = pkg.engines.node.split("||").map((branch) => semver.minVersion(branch.trim())!.version);

  it("are the ones the README states, and the Node.js running these tests is one of them", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const said = floors.map((v) => v.replace(/\.0$/, "").replace(/^(\d+)\.0$/, "$1")).join(", ");
    expect(readme).toContain(`Node.js ${said}`);
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it.each(floors)("%s is admitted by every installed dependency's engines, except packages Hush never loads", (floor) => {
    const refusing = new Set<string>();
    for (const p of installedPackages(path.join(ROOT, "node_modules"))) {
      const range = p.engines?.node;
      if (range && semver.validRange(range) && !semver.satisfies(floor, range)) refusing.add(p.name);
    }
    expect([...refusing].filter((name) => !NEVER_LOADED[name])).toEqual([]);
  });

  it("never imports the packages listed as never loaded", () => {
    const names = [...Object.keys(NEVER_LOADED), "@prisma/dev"];
    const importing = ["app", "lib", "components", "scripts", "dev", "server.mjs", "deploy"]
      .map((p) => path.join(ROOT, p))
      .filter((p) => fs.existsSync(p))
      .flatMap((p) => (fs.statSync(p).isDirectory() ? sourceFiles(p) : [p]))
      .filter((file) => names.some((n) => fs.readFileSync(file, "utf8").includes(`"${n}`)));
    expect(importing).toEqual([]);
  });
});
