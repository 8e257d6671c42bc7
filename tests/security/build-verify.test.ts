import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareManifests, manifestOfBuild, parseManifest, serializeManifest } from "@/lib/server/build/manifest";
import { formatReport, referencesOf, verifyDeployment } from "@/lib/server/build/verify";
import { addIntegrity, integrityLookup, sri384 } from "@/lib/server/security/sri";

/**
 * docs/issues.md #21 part 5 without a server: integrity added to HTML, the build manifest, and the verifier's
 * checks against a fake deployment. The same checks against the production server, with one byte of
 * one chunk changed, run in e2e/verify.spec.ts.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A fake build folder with two chunks and a stylesheet. */
function fakeBuild(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "hush-sri-"));
  dirs.push(dist);
  fs.mkdirSync(path.join(dist, "static", "chunks"), { recursive: true });
  fs.writeFileSync(path.join(dist, "static", "chunks", "a.js"), "console.log('a')");
  fs.writeFileSync(path.join(dist, "static", "chunks", "b.js"), "console.log('b')");
  fs.writeFileSync(path.join(dist, "static", "chunks", "s.css"), "body{color:red}");
  return dist;
}

const COMMIT = "0123456789abcdef0123456789abcdef01234567";

describe("addIntegrity", () => {
  it("adds the SHA-384 to scripts, stylesheets and preloads of /_next/static, and nothing else", () => {
    const dist = fakeBuild();
    const html =
      '<link rel="stylesheet" href="/_next/static/chunks/s.css" data-precedence="next"/>' +
      '<link rel="preload" as="script" href="/_next/static/chunks/a.js"/>' +
      '<script src="/_next/static/chunks/a.js" async=""></script>' +
      '<script src="/_next/static/chunks/b.js" integrity="sha384-given"></script>' +
      '<script src="/elsewhere.js"></script><link rel="icon" href="/_next/static/chunks/s.css"/><script>inline()</script>';
    const out = addIntegrity(html, integrityLookup(dist));
    expect(out).toContain(`<link rel="stylesheet" href="/_next/static/chunks/s.css" data-precedence="next" integrity="${sri384("body{color:red}")}"/>`);
    expect(out).toContain(`<link rel="preload" as="script" href="/_next/static/chunks/a.js" integrity="${sri384("console.log('a')")}"/>`);
    expect(out).toContain(`<script src="/_next/static/chunks/a.js" async="" integrity="${sri384("console.log('a')")}">`);
    expect(out).toContain('integrity="sha384-given"');
    expect(out).toContain('<script src="/elsewhere.js"></script><link rel="icon" href="/_next/static/chunks/s.css"/><script>inline()</script>');
    expect(addIntegrity(out, integrityLookup(dist))).toBe(out);
  });

  it("never reads outside the build's static folder", () => {
    const lookup = integrityLookup(fakeBuild());
    expect(lookup("/_next/static/../../etc/passwd")).toBeUndefined();
    expect(lookup("/_next/static/chunks/missing.js")).toBeUndefined();
    expect(lookup("/_next/static/chunks/a.js?dpl=1")).toBe(sri384("console.log('a')"));
  });
});

describe("build manifest", () => {
  it("lists every static file with its SHA-384, sorted, and serializes the same way twice", () => {
    const dist = fakeBuild();
    const manifest = manifestOfBuild(dist, COMMIT);
    expect(Object.keys(manifest.files)).toEqual(["/_next/static/chunks/a.js", "/_next/static/chunks/b.js", "/_next/static/chunks/s.css"]);
    expect(manifest.files["/_next/static/chunks/b.js"]).toBe(sri384("console.log('b')"));
    expect(serializeManifest(manifestOfBuild(dist, COMMIT))).toBe(serializeManifest(manifest));
    expect(parseManifest(JSON.parse(serializeManifest(manifest)))).toEqual(manifest);
    expect(parseManifest({ ...manifest, files: { "/etc/passwd": "x" } })).toBeInstanceOf(Error);
  });

  it("compares two manifests file by file", () => {
    const dist = fakeBuild();
    const a = manifestOfBuild(dist, COMMIT);
    fs.writeFileSync(path.join(dist, "static", "chunks", "b.js"), "console.log('B')");
    fs.writeFileSync(path.join(dist, "static", "chunks", "c.js"), "new");
    const b = manifestOfBuild(dist, COMMIT);
    expect(compareManifests(a, b)).toEqual([
      { file: "/_next/static/chunks/b.js", expected: sri384("console.log('b')"), actual: sri384("console.log('B')") },
      { file: "/_next/static/chunks/c.js", expected: undefined, actual: sri384("new") },
    ]);
  });
});

describe("verifyDeployment", () => {
  /** A fake deployment of `dist`'s files, with an HTML page, through `fetch`. */
  function deployment(dist: string, options: { change?: (file: string, bytes: Buffer) => Buffer; html?: string } = {}): typeof fetch {
    const manifest = serializeManifest(manifestOfBuild(dist, COMMIT));
    const lookup = integrityLookup(dist);
    const html =
      options.html ??
      addIntegrity('<html><head><link rel="stylesheet" href="/_next/static/chunks/s.css"/><script src="/_next/static/chunks/a.js"></script><script>self.__next_f=[]</script></head></html>', lookup);
    return (async (input: string | URL | Request) => {
      const { pathname } = new URL(String(input));
      if (pathname === "/.well-known/hush/manifest.json") return new Response(manifest);
      if (pathname === "/") return new Response(html, { headers: { "content-type": "text/html" } });
      if (pathname.startsWith("/_next/static/")) {
        const file = path.join(dist, "static", pathname.slice("/_next/static/".length));
        if (!fs.existsSync(file)) return new Response("not found", { status: 404 });
        const bytes = fs.readFileSync(file);
        return new Response(new Uint8Array(options.change ? options.change(pathname, bytes) : bytes));
      }
      return new Response("not found", { status: 404 });
    }) as typeof fetch;
  }

  it("passes when the deployment serves the local build", async () => {
    const dist = fakeBuild();
    const report = await verifyDeployment({ origin: "https://hush.test", local: manifestOfBuild(dist, COMMIT), pages: ["/"], fetchImpl: deployment(dist) });
    expect(report.problems).toEqual([]);
    expect(formatReport(report, COMMIT).at(-1)).toMatch(/^VERDICT: OK/);
  });

  it("fails on one changed byte, naming the file and both hashes", async () => {
    const dist = fakeBuild();
    const change = (file: string, bytes: Buffer) => {
      if (file !== "/_next/static/chunks/b.js") return bytes;
      const copy = Buffer.from(bytes);
      copy[0] = copy[0]! ^ 1;
      return copy;
    };
    const report = await verifyDeployment({ origin: "https://hush.test", local: manifestOfBuild(dist, COMMIT), pages: ["/"], fetchImpl: deployment(dist, { change }) });
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      { file: "/_next/static/chunks/b.js", reason: "served bytes differ from the local build", local: sri384("console.log('b')"), served: sri384("bonsole.log('b')") },
    ]);
    const lines = formatReport(report, COMMIT);
    expect(lines).toContain(`  local  ${sri384("console.log('b')")}`);
    expect(lines.at(-1)).toMatch(/^VERDICT: MISMATCH/);
  });

  it("fails on a page script without integrity, from elsewhere, or unknown to the build", async () => {
    const dist = fakeBuild();
    const html =
      '<script src="/_next/static/chunks/a.js"></script><script src="https://cdn.example/x.js"></script>' +
      `<script src="/_next/static/chunks/extra.js" integrity="${sri384("x")}"></script>`;
    const report = await verifyDeployment({ origin: "https://hush.test", local: manifestOfBuild(dist, COMMIT), pages: ["/"], fetchImpl: deployment(dist, { html }) });
    expect(report.problems.map((p) => p.reason)).toEqual(["no integrity attribute", "not in the local build", "not a file of this build (another origin or outside /_next/static/)"]);
  });

  it("fails when the served manifest names another commit", async () => {
    const dist = fakeBuild();
    const local = manifestOfBuild(dist, "f".repeat(40));
    const report = await verifyDeployment({ origin: "https://hush.test", local, pages: ["/"], fetchImpl: deployment(dist) });
    expect(report.problems.map((p) => p.reason)).toEqual([`commit differs: local ${"f".repeat(40)}, served ${COMMIT} (build the served commit to compare)`]);
  });

  it("counts inline scripts and skips JSON data blocks", () => {
    expect(referencesOf('<script>a()</script><script type="application/ld+json">{}</script><script src="/x.js"></script>').inlineScripts).toBe(1);
  });
});
