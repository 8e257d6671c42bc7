import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/get-country/route";
import { resetConfigForTests } from "../helpers/process-state";
import { fromPeer } from "../helpers/peer";

/**
 * GET /api/get-country (docs/product.md §7): the edge header from a trusted proxy, else the offline GeoIP table
 * for the client address (lib/server/client-address.ts), else US. Forwarded headers from anyone but a
 * TRUSTED_PROXIES peer are ignored (docs/issues.md #10: a visitor must not choose its pricing country).
 */
const ask = async (headers: Record<string, string> = {}) => {
  const res = await GET(new Request("http://localhost/api/get-country", { headers }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { country_code: string }).country_code;
};

function set(env: Record<string, string>) {
  Object.assign(process.env, env);
  resetConfigForTests();
}

afterEach(() => {
  delete process.env.COUNTRY_HEADER;
  delete process.env.CLIENT_IP_HEADER;
  delete process.env.TRUSTED_PROXIES;
  resetConfigForTests();
});

describe("GET /api/get-country", () => {
  it("uses the offline table for the socket peer when no proxy is trusted", async () => {
    expect(await ask(fromPeer("203.97.1.1"))).toBe("NZ");
    expect(await ask(fromPeer("139.130.4.5"))).toBe("AU");
    expect(await ask(fromPeer("8.8.8.8"))).toBe("US");
    expect(await ask(fromPeer("::ffff:139.130.4.5"))).toBe("AU");
  });

  it("an untrusted client cannot choose its country with X-Forwarded-For or the country header", async () => {
    set({ COUNTRY_HEADER: "cf-ipcountry" });
    for (const forged of ["203.97.1.1", "139.130.4.5", "8.8.8.8, 203.97.1.1"]) {
      expect(await ask(fromPeer("8.8.8.8", { "x-forwarded-for": forged }))).toBe("US");
      expect(await ask({ "x-forwarded-for": forged })).toBe("US");
    }
    expect(await ask(fromPeer("8.8.8.8", { "cf-ipcountry": "NZ" }))).toBe("US");
    set({ TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(await ask(fromPeer("8.8.8.8", { "cf-ipcountry": "NZ", "x-forwarded-for": "203.97.1.1" }))).toBe("US");
  });

  it("answers US when the address is unknown, private, IPv6 or missing", async () => {
    expect(await ask()).toBe("US");
    expect(await ask(fromPeer("127.0.0.1"))).toBe("US");
    expect(await ask(fromPeer("2001:db8::1"))).toBe("US");
  });

  it("behind a trusted proxy: its X-Forwarded-For, right-most untrusted hop", async () => {
    set({ TRUSTED_PROXIES: "127.0.0.1" });
    expect(await ask(fromPeer("127.0.0.1", { "x-forwarded-for": "203.97.1.1" }))).toBe("NZ");
    expect(await ask(fromPeer("127.0.0.1", { "x-forwarded-for": "8.8.8.8, 203.97.1.1" }))).toBe("NZ");
    expect(await ask(fromPeer("127.0.0.1", { "x-forwarded-for": "203.97.1.1, 8.8.8.8" }))).toBe("US");
    expect(await ask(fromPeer("127.0.0.1", { "x-forwarded-for": "not an address" }))).toBe("US");
  });

  it("prefers the edge header from a trusted proxy when configured, and only then", async () => {
    set({ TRUSTED_PROXIES: "127.0.0.1" });
    expect(await ask(fromPeer("127.0.0.1", { "cf-ipcountry": "AU", "x-forwarded-for": "203.97.1.1" }))).toBe("NZ");
    set({ COUNTRY_HEADER: "cf-ipcountry" });
    expect(await ask(fromPeer("127.0.0.1", { "cf-ipcountry": "au", "x-forwarded-for": "203.97.1.1" }))).toBe("AU");
    // Cloudflare's "unknown" falls back to the address.
    expect(await ask(fromPeer("127.0.0.1", { "cf-ipcountry": "XX", "x-forwarded-for": "203.97.1.1" }))).toBe("NZ");
  });

  it("reads the address from CLIENT_IP_HEADER of a trusted proxy", async () => {
    set({ TRUSTED_PROXIES: "127.0.0.1", CLIENT_IP_HEADER: "X-Real-IP" });
    expect(await ask(fromPeer("127.0.0.1", { "x-real-ip": "203.97.1.1", "x-forwarded-for": "139.130.4.5" }))).toBe("NZ");
  });
});
