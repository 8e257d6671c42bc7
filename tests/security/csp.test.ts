import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { API_POLICY, hstsHeader, inlineScriptHashes, pagePolicy } from "@/lib/server/security/csp";
import { proxy } from "@/proxy";

/** The security headers of docs/issues.md #10 (lib/server/security/csp.ts, proxy.ts); the browser side is e2e/security.spec.ts. */
const ENV = ["NODE_ENV", "APP_URL", "NEXTAUTH_SECRET", "LLM_BASE_URL"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete (process.env as Record<string, string | undefined>)[k];
    else (process.env as Record<string, string | undefined>)[k] = saved[k];
  }
  resetConfigForTests();
});

function production(appUrl: string) {
  Object.assign(process.env, {
    NODE_ENV: "production",
    APP_URL: appUrl,
    NEXTAUTH_SECRET: "x".repeat(40),
    LLM_BASE_URL: "http://127.0.0.1:9/v1",
  });
  resetConfigForTests();
}

describe("pagePolicy", () => {
  it("allows scripts only from this origin and by nonce or hash; locks objects, base, frames and forms", () => {
    const policy = pagePolicy({ nonce: "abc123", hashes: ["sha256-xyz"] });
    const scripts = policy.split("; ").find((d) => d.startsWith("script-src"));
    // 'wasm-unsafe-eval' compiles WebAssembly only (the vault's Argon2id); JavaScript eval stays refused.
    expect(scripts).toBe("script-src 'self' blob: 'wasm-unsafe-eval' 'nonce-abc123' 'sha256-xyz'");
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'", "connect-src 'self'"]) {
      expect(policy.split("; ")).toContain(d);
    }
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(pagePolicy({ nonce: "n" })).not.toContain("'unsafe-eval'");
    expect(pagePolicy({ development: true })).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
  });

  it("hashes inline scripts exactly, skipping external and JSON ones", () => {
    const html = `<script src="/a.js"></script><script>alert(1)</script><script type="application/ld+json">{"a":1}</script><script nonce="x">alert(1)</script><script></script>`;
    expect(inlineScriptHashes(html)).toEqual(["sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI="]);
  });
});

describe("proxy.ts", () => {
  it("API responses: default-src 'none'", () => {
    const res = proxy(new NextRequest("http://localhost/api/get-country"));
    expect(res.headers.get("content-security-policy")).toBe(API_POLICY);
  });

  it("pages rendered per request: a fresh nonce each time, handed to Next in the request's CSP header", () => {
    production("http://localhost:3000");
    const one = proxy(new NextRequest("http://localhost/chat"));
    const two = proxy(new NextRequest("http://localhost/chat"));
    const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonceOf(one)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(one)).not.toBe(nonceOf(two));
    expect(one.headers.get("x-middleware-request-content-security-policy")).toBe(one.headers.get("content-security-policy"));
    expect(one.headers.get("x-middleware-request-x-nonce")).toBe(nonceOf(one));
  });

  it("Strict-Transport-Security in production with an https APP_URL only", () => {
    production("https://hush.example");
    expect(proxy(new NextRequest("https://hush.example/chat")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(proxy(new NextRequest("https://hush.example/api/me")).headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    production("http://localhost:3000");
    expect(proxy(new NextRequest("http://localhost:3000/chat")).headers.get("strict-transport-security")).toBeNull();
    expect(hstsHeader({ production: false, appUrl: "https://hush.example" })).toBeNull();
  });
});
