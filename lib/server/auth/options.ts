import "server-only";
import type { AuthOptions } from "next-auth";
import EmailProvider from "next-auth/providers/email";
import GoogleProvider, { type GoogleProfile } from "next-auth/providers/google";
import { getConfig } from "@/lib/server/config";
import { sendSignInEmail } from "@/lib/server/mail";
import { hushAdapter } from "@/lib/server/auth/adapter";
import { sessionCookieName, sessionCookieOptions, secureCookies } from "@/lib/server/auth/cookies";
import { normalizeEmail } from "@/lib/server/auth/email-address";
import { getAuthSecret } from "@/lib/server/secret";
import { generateSessionToken, SESSION_REFRESH_AFTER_S, sessionIdleSeconds } from "@/lib/server/db/sessions";
import { logger, securityEvent } from "@/lib/server/log";

/** next-auth 4 configuration, built per request (a desktop sign-in's ID token is handed to the request). */

/** Sign-in links work for 10 minutes, once. */
const EMAIL_LINK_MAX_AGE_S = 10 * 60;

export interface AuthRequestContext {
  googleIdToken?: string;
}

/** Shown by components/auth/errors.ts. */
const GOOGLE_EMAIL_NOT_VERIFIED = "GoogleEmailNotVerified";

export function nextAuthUrl(): string {
  return `${getConfig().APP_URL.replace(/\/+$/, "")}/api/auth`;
}

/** Derived from APP_URL before each call: next-auth reads NEXTAUTH_URL itself. */
export function applyNextAuthEnv(): void {
  process.env.NEXTAUTH_URL = nextAuthUrl();
}

export function emailLinkFor(nextAuthVerificationUrl: string): string {
  const token = new URL(nextAuthVerificationUrl).searchParams.get("token") ?? "";
  const link = new URL("/signup", getConfig().APP_URL);
  link.searchParams.set("token", token);
  return link.toString();
}

/** No addresses, no token-like strings, bounded. */
const scrub = (text: string) =>
  text
    .replace(/[^\s@"'<>]+@[^\s@"'<>]+/g, "<address>")
    .replace(/[A-Za-z0-9_\-.~+/=]{20,}/g, "<redacted>")
    .slice(0, 300);

function describe(metadata: unknown): string {
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  return error instanceof Error ? `${error.name}: ${scrub(error.message)}` : "";
}

export function buildAuthOptions(ctx: AuthRequestContext = {}): AuthOptions {
  const config = getConfig();
  const providers: AuthOptions["providers"] = [
    EmailProvider({
      server: {},
      from: "unused",
      maxAge: EMAIL_LINK_MAX_AGE_S,
      normalizeIdentifier: normalizeEmail,
      async sendVerificationRequest({ identifier, url, expires }) {
        await sendSignInEmail({ to: identifier, url: emailLinkFor(url), expires });
      },
    }),
  ];
  if (config.googleSignIn) {
    const issuer = config.GOOGLE_ISSUER.replace(/\/+$/, "");
    providers.push(
      GoogleProvider({
        clientId: config.GOOGLE_CLIENT_ID!,
        clientSecret: config.GOOGLE_CLIENT_SECRET!,
        wellKnown: `${issuer}/.well-known/openid-configuration`,
        // Google verifies the addresses it vouches for: a first Google sign-in joins the e-mail account.
        allowDangerousEmailAccountLinking: true,
        profile: (profile: GoogleProfile) => ({
          id: profile.sub,
          email: typeof profile.email === "string" ? profile.email.toLowerCase() : null,
          name: null,
          image: null,
        }),
      }),
    );
  }
  return {
    secret: getAuthSecret(),
    adapter: hushAdapter(),
    providers,
    session: {
      strategy: "database",
      // The absolute end is enforced by lib/server/db/sessions.ts.
      maxAge: sessionIdleSeconds(),
      updateAge: SESSION_REFRESH_AFTER_S,
      generateSessionToken,
    },
    useSecureCookies: secureCookies(),
    cookies: { sessionToken: { name: sessionCookieName(), options: sessionCookieOptions() } },
    pages: { signIn: "/signup", error: "/signup", verifyRequest: "/signup" },
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider === "google") {
          const verified: unknown = (profile as GoogleProfile | undefined)?.email_verified;
          if (verified !== true && verified !== "true") throw new Error(GOOGLE_EMAIL_NOT_VERIFIED);
          if (typeof account.id_token === "string") ctx.googleIdToken = account.id_token;
        }
        return true;
      },
      session({ session }) {
        return { expires: session.expires, user: { email: session.user?.email ?? null } };
      },
    },
    events: {
      signIn({ user, account }) {
        securityEvent("auth.sign_in", { userId: user.id, provider: account?.provider ?? null });
      },
      signOut({ session }) {
        securityEvent("auth.sign_out", { userId: (session as { userId?: string } | null)?.userId ?? null });
      },
    },
    logger: {
      error: (code, metadata) => logger("auth").error({ code: String(code).slice(0, 64), detail: describe(metadata) }, "next-auth error"),
      warn: (code) => logger("auth").warn({ code: String(code).slice(0, 64) }, "next-auth warning"),
      debug: () => undefined,
    },
  };
}
