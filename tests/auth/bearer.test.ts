import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as checkAccountStatus } from "@/app/api/check_account_status/route";
import { POST as createAccount } from "@/app/api/create_account/route";
import { getDb } from "@/lib/server/db/client";
import { CLOCK_TOLERANCE_S } from "@/lib/server/auth/google-id-token";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { signGoogleIdToken, stopTestGoogleIssuer, TEST_GOOGLE_CLIENT_ID, startTestGoogleIssuer } from "../helpers/auth";
import type { TestOidcServer } from "../helpers/oidc";

/**
 * `Authorization: Bearer <Google ID token>` (docs/product.md §6) through the real endpoint handlers, against a
 * local OpenID Connect issuer whose keys sign the tokens (oauth2-mock-server). Every refusal is a
 * 401 `{ error }`, never a 500.
 */
let testDb: TestDb;
let idp: TestOidcServer;

beforeAll(async () => {
  testDb = await setupTestDb();
  idp = await startTestGoogleIssuer();
});

afterAll(async () => {
  await stopTestGoogleIssuer();
  await testDb.cleanup();
});

const status = (token: string) =>
  checkAccountStatus(new Request("http://localhost/api/check_account_status", { headers: { Authorization: `Bearer ${token}` } }));

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The kid of the issuer's signing key, read from a token it signed. */
async function issuerKid(): Promise<string> {
  const token = await signGoogleIdToken();
  return JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid as string;
}

async function expect401(response: Response) {
  expect(response.status).toBe(401);
  const body = await response.json();
  expect(typeof body.error).toBe("string");
}

describe("a valid Google ID token", () => {
  it("authenticates, creating the user and the Google account link on first use", async () => {
    const token = await signGoogleIdToken({ sub: "sub-valid-1", email: "Valid.One@Example.test" });
    const res = await status(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account_deleted: false });
    const account = await testDb.db.account.findUnique({
      where: { provider_providerAccountId: { provider: "google", providerAccountId: "sub-valid-1" } },
      include: { user: true },
    });
    expect(account?.user.email).toBe("valid.one@example.test");
    expect(account?.id_token).toBeNull();
  });

  it("finds the account by subject, not by e-mail", async () => {
    const first = await signGoogleIdToken({ sub: "sub-stable", email: "before@example.test" });
    expect((await status(first)).status).toBe(200);
    const renamed = await signGoogleIdToken({ sub: "sub-stable", email: "after@example.test" });
    expect((await status(renamed)).status).toBe(200);
    const db = await getDb();
    const links = await db.account.findMany({ where: { providerAccountId: "sub-stable" }, include: { user: true } });
    expect(links).toHaveLength(1);
    expect(links[0]!.user.email).toBe("before@example.test");
    expect(await db.user.count({ where: { email: "after@example.test" } })).toBe(0);
  });

  it("works on a state-changing endpoint without Origin (bearer requests are exempt from the CSRF check)", async () => {
    const token = await signGoogleIdToken({ sub: "sub-create", email: "create@example.test" });
    const res = await createAccount(
      new Request("http://localhost/api/create_account", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Origin: "https://evil.example" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, account_deleted: false });
  });
});

describe("refused tokens answer 401, never 500", () => {
  it("wrong audience", async () => {
    await expect401(await status(await signGoogleIdToken({ aud: "someone-else.apps.example.test" })));
  });

  it("wrong issuer", async () => {
    await expect401(await status(await signGoogleIdToken({ iss: "https://accounts.google.com" })));
  });

  it("expired", async () => {
    await expect401(await status(await signGoogleIdToken({}, { expiresIn: -120 })));
  });

  it("not yet valid (nbf in the future)", async () => {
    await expect401(await status(await signGoogleIdToken({ nbf: Math.floor(Date.now() / 1000) + 3600 })));
  });

  it("issued in the future, beyond the clock tolerance (docs/issues.md #10)", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect401(await status(await signGoogleIdToken({ sub: "sub-future-iat", iat: now + 120, exp: now + 3700 })));
    // Within the tolerance (a few seconds of skew) it still works.
    expect((await status(await signGoogleIdToken({ sub: "sub-near-iat", iat: now + 3, exp: now + 3600 }))).status).toBe(200);
  });

  it("expired more than 60 s ago, or issued more than an hour ago (clock tolerance at most 60 s, docs/issues.md #10)", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(CLOCK_TOLERANCE_S).toBeLessThanOrEqual(60);
    await expect401(await status(await signGoogleIdToken({ sub: "sub-late-exp", iat: now - 3600, exp: now - 61 })));
    await expect401(await status(await signGoogleIdToken({ sub: "sub-old-iat", iat: now - 7300, exp: now + 600 })));
  });

  it("e-mail not verified", async () => {
    await expect401(await status(await signGoogleIdToken({ sub: "sub-unverified", email_verified: false })));
  });

  it("no e-mail", async () => {
    await expect401(await status(await signGoogleIdToken({ sub: "sub-no-mail", email: undefined })));
  });

  it("alg none", async () => {
    const kid = await issuerKid();
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: idp.issuer, aud: TEST_GOOGLE_CLIENT_ID, sub: "x", email: "x@example.test", email_verified: true, iat: now, exp: now + 600 };
    await expect401(await status(`${b64url({ alg: "none", kid })}.${b64url(claims)}.`));
    await expect401(await status(`${b64url({ alg: "none", kid })}.${b64url(claims)}.c2ln`));
  });

  it("HS256, signed with any secret (including the issuer's public key)", async () => {
    const kid = await issuerKid();
    const jwks = (await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { n: string }[] };
    for (const secret of ["secret", jwks.keys[0]!.n]) {
      const token = await new SignJWT({ email: "x@example.test", email_verified: true })
        .setProtectedHeader({ alg: "HS256", kid })
        .setIssuer(idp.issuer)
        .setAudience(TEST_GOOGLE_CLIENT_ID)
        .setSubject("hs256")
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(new TextEncoder().encode(secret));
      await expect401(await status(token));
    }
  });

  it("signed by a key the issuer does not publish (unknown kid), and a known kid with a foreign signature", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const build = (kid: string) =>
      new SignJWT({ email: "x@example.test", email_verified: true })
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(idp.issuer)
        .setAudience(TEST_GOOGLE_CLIENT_ID)
        .setSubject("foreign")
        .setIssuedAt()
        .setExpirationTime("10m")
        .sign(privateKey);
    await expect401(await status(await build("not-a-published-kid")));
    await expect401(await status(await build(await issuerKid())));
  });

  it("a tampered payload", async () => {
    const [h, , s] = (await signGoogleIdToken({ sub: "tamper" })).split(".");
    await expect401(await status(`${h}.${b64url({ sub: "admin", aud: TEST_GOOGLE_CLIENT_ID, iss: idp.issuer })}.${s}`));
  });

  it.each([
    ["Bearer %", "Bearer %"],
    ["Bearer with nothing", "Bearer "],
    ["garbage", "Bearer garbage"],
    ["three garbage segments", "Bearer a.b.c"],
    ["a non-Bearer scheme", "Basic dXNlcjpwYXNz"],
    ["a huge token", `Bearer ${"a".repeat(9000)}.b.c`],
  ])("%s", async (_name, header) => {
    const res = await checkAccountStatus(
      new Request("http://localhost/api/check_account_status", { headers: { Authorization: header } }),
    );
    await expect401(res);
  });

  it("an Authorization header overrides a cookie (no mixing of credentials)", async () => {
    const res = await checkAccountStatus(
      new Request("http://localhost/api/check_account_status", {
        headers: { Authorization: "Bearer %", Cookie: "next-auth.session-token=whatever" },
      }),
    );
    await expect401(res);
  });
});

describe("when the issuer cannot be reached", () => {
  it("answers 503 (the token could not be checked), not 401 or 500", async () => {
    const token = await signGoogleIdToken({ sub: "sub-offline" });
    const saved = process.env.GOOGLE_ISSUER;
    process.env.GOOGLE_ISSUER = "http://127.0.0.1:9"; // discard port: connection refused
    const { resetConfigForTests } = await import("../helpers/process-state");
    resetConfigForTests();
    try {
      const res = await status(token);
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatch(/try again/i);
    } finally {
      process.env.GOOGLE_ISSUER = saved;
      resetConfigForTests();
    }
  });
});
