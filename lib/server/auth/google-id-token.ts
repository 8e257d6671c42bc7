import "server-only";
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";

/**
 * Verification of Google ID tokens, the desktop app's credential (docs/product.md §6: "All authenticated calls
 * carry the user's ID token"; §2 /appsignup?idToken=). Checked: RS256 signature against the issuer's
 * JWKS (found through its OpenID discovery document, GOOGLE_ISSUER), issuer, audience =
 * GOOGLE_CLIENT_ID, expiry, not-before and issued-at (CLOCK_TOLERANCE_S skew; an iat in the future or
 * older than Google's one-hour token life is refused), a subject, and email_verified = true.
 * Google documents two issuer spellings, "https://accounts.google.com" and "accounts.google.com";
 * both are accepted for the real Google issuer.
 */

/**
 * The token is not a valid Google ID token for this app (AppError "unauthorized:id_token"); the message
 * names the check, never the token.
 */
const invalidIdToken = (message: string) => new AppError("unauthorized:id_token", message);

/**
 * The issuer's discovery document or keys could not be fetched: the token could not be checked
 * (AppError "unavailable:identity_provider").
 */
const providerUnavailable = (message: string) => new AppError("unavailable:identity_provider", message);

/** What a verified token says about its holder. */
export interface GoogleIdentity {
  /** Google's stable account id: the Account's providerAccountId. */
  sub: string;
  /** Lowercased; present and verified (tokens without a verified e-mail are refused). */
  email: string;
  name: string | null;
  picture: string | null;
}

/** Longest token considered (Google's are about 1 KB). */
const MAX_TOKEN_CHARS = 8192;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];
/** Clock skew allowed on exp, nbf and iat, in seconds (at most 60 s). */
export const CLOCK_TOLERANCE_S = 10;
/** Google ID tokens live one hour; an older iat is refused even if exp says otherwise. */
const MAX_TOKEN_AGE_S = 3600;

interface IssuerKeys {
  issuers: string[];
  jwks: ReturnType<typeof createRemoteJWKSet>;
  fetchedAt: number;
}

const discoveries = new Map<string, Promise<IssuerKeys>>();

/**
 * Verify `token` and return the identity it proves.
 * @throws AppError "unauthorized:id_token" (any failed check, malformed input, Google sign-in not configured),
 *   AppError "unavailable:identity_provider" (the issuer's discovery document or JWKS cannot be fetched).
 */
export async function verifyGoogleIdToken(token: string): Promise<GoogleIdentity> {
  const config = getConfig();
  if (!config.GOOGLE_CLIENT_ID) throw invalidIdToken("Google sign-in is not configured.");
  if (token.length > MAX_TOKEN_CHARS || !COMPACT_JWS.test(token)) throw invalidIdToken("Malformed token.");
  // Refuse other algorithms (none, HS256...) and key-less headers before any network access.
  let header;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw invalidIdToken("Malformed token header.");
  }
  if (header.alg !== "RS256") throw invalidIdToken("Token algorithm not allowed.");
  if (typeof header.kid !== "string" || !header.kid) throw invalidIdToken("Token has no key id.");

  const keys = await issuerKeys(config.GOOGLE_ISSUER);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys.jwks, {
      algorithms: ["RS256"],
      issuer: keys.issuers,
      audience: config.GOOGLE_CLIENT_ID,
      clockTolerance: CLOCK_TOLERANCE_S,
      // With maxTokenAge, jose also refuses an iat in the future (beyond the tolerance).
      maxTokenAge: MAX_TOKEN_AGE_S,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (error) {
    throw classify(error);
  }
  const verified = payload.email_verified === true || payload.email_verified === "true";
  if (typeof payload.sub !== "string" || !payload.sub) throw invalidIdToken("Token has no subject.");
  if (typeof payload.email !== "string" || !payload.email) throw invalidIdToken("Token has no e-mail.");
  if (!verified) throw invalidIdToken("The e-mail address is not verified.");
  return {
    sub: payload.sub,
    email: payload.email.trim().toLowerCase(),
    name: typeof payload.name === "string" ? payload.name : null,
    picture: typeof payload.picture === "string" ? payload.picture : null,
  };
}

function classify(error: unknown): AppError {
  if (error instanceof joseErrors.JOSEError) {
    // The key set could not be fetched or read: the issuer's fault, not the token's.
    if (["ERR_JWKS_TIMEOUT", "ERR_JWKS_INVALID", "ERR_JOSE_GENERIC"].includes(error.code)) {
      return providerUnavailable(`Could not fetch the issuer's keys (${error.code}).`);
    }
    return invalidIdToken(`Token refused (${error.code}).`);
  }
  return providerUnavailable("Could not fetch the issuer's keys.");
}

/** The issuer's accepted `iss` values and key set, from its discovery document (cached an hour). */
async function issuerKeys(issuer: string): Promise<IssuerKeys> {
  const base = issuer.replace(/\/+$/, "");
  const cached = discoveries.get(base);
  if (cached) {
    const keys = await cached.catch(() => null);
    if (keys && Date.now() - keys.fetchedAt < DISCOVERY_TTL_MS) return keys;
    if (discoveries.get(base) === cached) discoveries.delete(base);
  }
  let pending = discoveries.get(base);
  if (!pending) {
    pending = discover(base);
    discoveries.set(base, pending);
    // A failed discovery is not cached: the next token tries again.
    pending.catch(() => {
      if (discoveries.get(base) === pending) discoveries.delete(base);
    });
  }
  return pending;
}

async function discover(base: string): Promise<IssuerKeys> {
  let doc: { issuer?: unknown; jwks_uri?: unknown };
  try {
    const response = await fetch(`${base}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(5000),
      headers: { Accept: "application/json" },
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    doc = (await response.json()) as typeof doc;
  } catch (error) {
    throw providerUnavailable(
      `Could not read the issuer's discovery document (${error instanceof Error ? error.message : "unknown"}).`,
    );
  }
  if (typeof doc.jwks_uri !== "string" || typeof doc.issuer !== "string") {
    throw providerUnavailable("The issuer's discovery document has no issuer or jwks_uri.");
  }
  const issuers = new URL(base).hostname === "accounts.google.com" ? GOOGLE_ISSUERS : [doc.issuer];
  return { issuers, jwks: createRemoteJWKSet(new URL(doc.jwks_uri)), fetchedAt: Date.now() };
}

/** Forget cached discovery documents and key sets (tests that restart their issuer). */
export function resetIdTokenCacheForTests(): void {
  discoveries.clear();
}
