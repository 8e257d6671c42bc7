import "server-only";
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { getConfig } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";

/** Verification of Google ID tokens, the desktop app's credential (docs/product.md §6). */

/** The message names the check, never the token. */
const invalidIdToken = (message: string) => new AppError("unauthorized:id_token", message);

const providerUnavailable = (message: string) => new AppError("unavailable:identity_provider", message);

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string | null;
  picture: string | null;
}

const MAX_TOKEN_CHARS = 8192;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];
export const CLOCK_TOLERANCE_S = 10;
/** An older iat is refused even if exp says otherwise. */
const MAX_TOKEN_AGE_S = 3600;

interface IssuerKeys {
  issuers: string[];
  jwks: ReturnType<typeof createRemoteJWKSet>;
  fetchedAt: number;
}

const discoveries = new Map<string, Promise<IssuerKeys>>();

/**
 * @throws AppError "unauthorized:id_token" (a failed check, or Google sign-in not configured),
 *   AppError "unavailable:identity_provider" (discovery document or JWKS unreachable).
 */
export async function verifyGoogleIdToken(token: string): Promise<GoogleIdentity> {
  const config = getConfig();
  if (!config.GOOGLE_CLIENT_ID) throw invalidIdToken("Google sign-in is not configured.");
  if (token.length > MAX_TOKEN_CHARS || !COMPACT_JWS.test(token)) throw invalidIdToken("Malformed token.");
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
      // jose also refuses an iat in the future.
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
    if (["ERR_JWKS_TIMEOUT", "ERR_JWKS_INVALID", "ERR_JOSE_GENERIC"].includes(error.code)) {
      return providerUnavailable(`Could not fetch the issuer's keys (${error.code}).`);
    }
    return invalidIdToken(`Token refused (${error.code}).`);
  }
  return providerUnavailable("Could not fetch the issuer's keys.");
}

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
    // A failed discovery is not cached.
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
