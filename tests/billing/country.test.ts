import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/api/get-country/route";
import { resetConfigForTests } from "@/lib/config";

/** GET /api/get-country (spec §7): trusted edge header, else the offline GeoIP table, else US. */
const ask = async (headers: Record<string, string> = {}) => {
  const res = await GET(new Request("http://localhost/api/get-country", { headers }));
  expect(res.status).toBe(200);
  return ((await res.json()) as { country_code: string }).country_code;
};

afterEach(() => {
  delete process.env.COUNTRY_HEADER;
  delete process.env.CLIENT_IP_HEADER;
  resetConfigForTests();
});

describe("GET /api/get-country", () => {
  it("uses the offline table for the client address (last X-Forwarded-For entry)", async () => {
    expect(await ask({ "x-forwarded-for": "203.97.1.1" })).toBe("NZ");
    expect(await ask({ "x-forwarded-for": "139.130.4.5" })).toBe("AU");
    expect(await ask({ "x-forwarded-for": "8.8.8.8" })).toBe("US");
    expect(await ask({ "x-forwarded-for": "8.8.8.8, 203.97.1.1" })).toBe("NZ");
    expect(await ask({ "x-forwarded-for": "::ffff:139.130.4.5" })).toBe("AU");
  });

  it("answers US when the address is unknown, private, IPv6 or missing", async () => {
    expect(await ask()).toBe("US");
    expect(await ask({ "x-forwarded-for": "127.0.0.1" })).toBe("US");
    expect(await ask({ "x-forwarded-for": "2001:db8::1" })).toBe("US");
    expect(await ask({ "x-forwarded-for": "not an address" })).toBe("US");
  });

  it("prefers the trusted edge header when configured, and only then", async () => {
    expect(await ask({ "cf-ipcountry": "AU", "x-forwarded-for": "203.97.1.1" })).toBe("NZ");
    process.env.COUNTRY_HEADER = "cf-ipcountry";
    resetConfigForTests();
    expect(await ask({ "cf-ipcountry": "au", "x-forwarded-for": "203.97.1.1" })).toBe("AU");
    // Cloudflare's "unknown" falls back to the address.
    expect(await ask({ "cf-ipcountry": "XX", "x-forwarded-for": "203.97.1.1" })).toBe("NZ");
  });

  it("reads the address from CLIENT_IP_HEADER", async () => {
    process.env.CLIENT_IP_HEADER = "X-Real-IP";
    resetConfigForTests();
    expect(await ask({ "x-real-ip": "203.97.1.1", "x-forwarded-for": "139.130.4.5" })).toBe("NZ");
  });
});
