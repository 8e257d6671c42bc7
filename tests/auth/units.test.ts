import { afterEach, describe, expect, it, vi } from "vitest";
import { authErrorMessage, cleanProviderMessage, DEFAULT_AUTH_ERROR } from "@/components/auth/errors";
import { parseConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { parseCookies, readCookie, serializeCookie } from "@/lib/server/auth/cookies";
import { desktopDeepLink } from "@/lib/server/auth/desktop";
import { normalizeEmail } from "@/lib/server/auth/email-address";
import { emailLinkFor, nextAuthUrl } from "@/lib/server/auth/options";
import { assertSameOrigin } from "@/lib/server/auth/session";
import { sendSignInEmail } from "@/lib/server/mail";
import { captureLogsForTests } from "@/lib/server/log";

/** Pure pieces of sign-in: error texts, address normalisation, the CSRF guard, cookies, links, settings. */

const ENV_KEYS = ["APP_URL", "NODE_ENV", "DESKTOP_APP_REDIRECT_URL", "EMAIL_SERVER"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function withEnv(env: Partial<Record<(typeof ENV_KEYS)[number], string>>) {
  for (const k of ENV_KEYS) {
    if (env[k] === undefined) delete (process.env as Record<string, string | undefined>)[k];
    else (process.env as Record<string, string | undefined>)[k] = env[k];
  }
  resetConfigForTests();
}

afterEach(() => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete (process.env as Record<string, string | undefined>)[k];
    else (process.env as Record<string, string | undefined>)[k] = saved[k];
  }
  resetConfigForTests();
  vi.restoreAllMocks();
});

describe("sign-in error texts (docs/product.md §5, §8)", () => {
  it("removes the provider's name prefix and trims", () => {
    expect(cleanProviderMessage("Firebase: Error (auth/invalid-email).")).toBe("Error (auth/invalid-email).");
    expect(cleanProviderMessage("  Google:   The popup was closed.  ")).toBe("The popup was closed.");
    expect(cleanProviderMessage("[next-auth]: [error]: Something failed")).toBe("Something failed");
    expect(cleanProviderMessage("Too many sign-in e-mails were requested.")).toBe("Too many sign-in e-mails were requested.");
    expect(cleanProviderMessage("   ")).toBe(DEFAULT_AUTH_ERROR);
    expect(cleanProviderMessage(null)).toBe(DEFAULT_AUTH_ERROR);
  });

  it("maps known codes and never echoes an unknown one from the URL", () => {
    expect(authErrorMessage("Verification")).toMatch(/invalid, has expired or was already used/);
    expect(authErrorMessage("OAuthAccountNotLinked")).toMatch(/already linked/);
    expect(authErrorMessage("Call 555-0100, your account is hacked")).toBe(DEFAULT_AUTH_ERROR);
    expect(authErrorMessage(null)).toBeNull();
  });
});

describe("normalizeEmail", () => {
  it("trims, lowercases and applies NFKC first", () => {
    expect(normalizeEmail("  Alice.Smith@Example.COM ")).toBe("alice.smith@example.com");
    // A fullwidth "@" (U+FF20) becomes "@" before validation, not after.
    expect(normalizeEmail("bob\uFF20example.com")).toBe("bob@example.com");
  });

  it.each(["", "plain", "a@b", "a@@example.com", 'a"b@example.com', "a@example..com", "a b@example.com", "a@example.com,b@evil.com", `${"x".repeat(250)}@example.com`])(
    "refuses %j",
    (input) => {
      expect(() => normalizeEmail(input)).toThrow(expect.objectContaining({ code: "bad_request:email" }));
    },
  );
});

describe("assertSameOrigin", () => {
  const req = (method: string, headers: Record<string, string>) => new Request("http://localhost:3000/api/x", { method, headers });

  it("lets safe methods, same-origin requests, non-browser clients and bearer requests through", () => {
    withEnv({ APP_URL: "https://hush.example" });
    expect(() => assertSameOrigin(req("GET", { Origin: "https://evil.example" }))).not.toThrow();
    expect(() => assertSameOrigin(req("POST", { Origin: "https://hush.example" }))).not.toThrow();
    expect(() => assertSameOrigin(req("DELETE", { "Sec-Fetch-Site": "same-origin" }))).not.toThrow();
    expect(() => assertSameOrigin(req("POST", { "Sec-Fetch-Site": "none" }))).not.toThrow();
    expect(() => assertSameOrigin(req("POST", {}))).not.toThrow();
    expect(() => assertSameOrigin(req("PATCH", { Origin: "https://evil.example", Authorization: "Bearer x" }))).not.toThrow();
  });

  it("refuses another origin (403) for POST, PUT, PATCH and DELETE", () => {
    withEnv({ APP_URL: "https://hush.example" });
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const refused: Record<string, string>[] = [
        { Origin: "https://evil.example" },
        { Origin: "http://hush.example" },
        { Origin: "https://hush.example:8443" },
        { Origin: "null" },
        { "Sec-Fetch-Site": "cross-site" },
        { "Sec-Fetch-Site": "same-site" },
      ];
      for (const headers of refused) {
        expect(() => assertSameOrigin(req(method, headers))).toThrow(expect.objectContaining({ status: 403 }));
      }
    }
  });

  it("in development also accepts the request's own host (127.0.0.1 vs localhost), never in production", () => {
    withEnv({ APP_URL: "http://localhost:3000" });
    const local = () => assertSameOrigin(req("POST", { Origin: "http://127.0.0.1:3000", Host: "127.0.0.1:3000" }));
    expect(local).not.toThrow();
    expect(() => assertSameOrigin(req("POST", { Origin: "http://127.0.0.1:3000", Host: "localhost:3000" }))).toThrow();
  });
});

describe("cookies", () => {
  it("reads one cookie or all of them, tolerating junk", () => {
    const header = 'a=1; next-auth.session-token=abc%2Fdef; b="quoted"; broken; c=%E0%A4%A';
    expect(readCookie(header, "next-auth.session-token")).toBe("abc/def");
    expect(readCookie(header, "missing")).toBeNull();
    expect(readCookie(header, "c")).toBeNull();
    expect(readCookie(null, "a")).toBeNull();
    expect(parseCookies(header)).toEqual({ a: "1", "next-auth.session-token": "abc/def", b: "quoted", c: "%E0%A4%A" });
  });

  it("serialises Set-Cookie values with every attribute", () => {
    expect(
      serializeCookie("n", "v w", { httpOnly: true, secure: true, sameSite: "lax", path: "/", maxAge: 120, expires: new Date(0) }),
    ).toBe("n=v%20w; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=120; HttpOnly; Secure; SameSite=Lax");
  });
});

describe("links", () => {
  it("the e-mailed link is APP_URL/signup?token=… (nothing else from next-auth's URL)", () => {
    withEnv({ APP_URL: "https://hush.example" });
    const link = emailLinkFor(
      "https://hush.example/api/auth/callback/email?callbackUrl=https%3A%2F%2Fhush.example%2Fsignup&token=abc123&email=a%40b.example",
    );
    expect(link).toBe("https://hush.example/signup?token=abc123");
    expect(nextAuthUrl()).toBe("https://hush.example/api/auth");
  });

  it("the desktop deep link adds idToken to DESKTOP_APP_REDIRECT_URL", () => {
    withEnv({});
    expect(desktopDeepLink("a.b-c.d_e")).toBe("hush://auth?idToken=a.b-c.d_e");
    withEnv({ DESKTOP_APP_REDIRECT_URL: "myapp://callback?source=web#x" });
    expect(desktopDeepLink("t")).toBe("myapp://callback?source=web&idToken=t#x");
  });
});

describe("settings", () => {
  const production = {
    NODE_ENV: "production",
    LLM_BASE_URL: "http://127.0.0.1:1/v1",
    APP_URL: "https://hush.example",
  };

  it("production needs NEXTAUTH_SECRET and an https APP_URL (loopback excepted)", () => {
    expect(() => parseConfig(production)).toThrow(/NEXTAUTH_SECRET/);
    const secret = { NEXTAUTH_SECRET: "s".repeat(32) };
    expect(() => parseConfig({ ...production, ...secret, APP_URL: "http://hush.example" })).toThrow(/APP_URL must be an https/);
    expect(parseConfig({ ...production, ...secret, APP_URL: "http://127.0.0.1:3100" }).isProduction).toBe(true);
    expect(() => parseConfig({ ...production, NEXTAUTH_SECRET: "short" })).toThrow(/at least 32/);
  });

  it("the mailbox's per-minute ceiling is at least the per-network hourly limit", () => {
    expect(parseConfig({}).EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE).toBe(6);
    expect(() => parseConfig({ EMAIL_SIGNIN_LIMIT_PER_HOUR: "7" })).toThrow(/EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE must be at least/);
    expect(parseConfig({ EMAIL_SIGNIN_LIMIT_PER_HOUR: "7", EMAIL_SIGNIN_MAILBOX_LIMIT_PER_MINUTE: "7" }).EMAIL_SIGNIN_LIMIT_PER_HOUR).toBe(7);
  });

  it("e-mail: SMTP when EMAIL_SERVER is set, the log in development, off in production", () => {
    const secret = { NEXTAUTH_SECRET: "s".repeat(32) };
    expect(parseConfig({}).emailDelivery).toBe("log");
    expect(parseConfig({ EMAIL_SERVER: "smtps://u:p@smtp.example.com:465" }).emailDelivery).toBe("smtp");
    expect(parseConfig({ ...production, ...secret }).emailDelivery).toBe("disabled");
    expect(() => parseConfig({ EMAIL_SERVER: "https://smtp.example.com" })).toThrow(/EMAIL_SERVER/);
  });

  it("Google needs both client settings; the sync URL needs its secret", () => {
    expect(parseConfig({ GOOGLE_CLIENT_ID: "id" }).googleSignIn).toBe(false);
    expect(parseConfig({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).googleSignIn).toBe(true);
    expect(parseConfig({}).GOOGLE_ISSUER).toBe("https://accounts.google.com");
    expect(() => parseConfig({ AUTH_SYNC_URL: "https://sync.example" })).toThrow(/AUTH_SYNC_SECRET/);
  });
});

describe("sendSignInEmail without EMAIL_SERVER (development)", () => {
  it("writes the link to the log, clearly marked, and sends nothing", async () => {
    withEnv({});
    const capture = captureLogsForTests();
    await sendSignInEmail({ to: "dev@example.test", url: "http://localhost:3000/signup?token=t0k", expires: new Date(Date.now() + 600_000) });
    capture.restore();
    const logged = capture.lines.join("\n");
    // The address is logged as a pseudonym like every address (lib/server/log.ts); the link itself in clear.
    expect(logged).not.toContain("dev@example.test");
    expect(logged).toContain("DEVELOPMENT: SIGN-IN LINK (not e-mailed: EMAIL_SERVER is unset)");
    expect(logged).toContain("http://localhost:3000/signup?token=t0k");
    expect(logged).toContain("valid 10 minutes, once");
  });
});
