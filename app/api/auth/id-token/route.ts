import { assertSameOrigin } from "@/lib/auth/session";
import { serializeCookie, sessionCookieName, sessionCookieOptions } from "@/lib/auth/cookies";
import { IdentityProviderUnavailableError, InvalidIdTokenError, verifyGoogleIdToken } from "@/lib/auth/google-id-token";
import { createSession } from "@/lib/auth/session-store";
import { findOrCreateGoogleUser } from "@/lib/auth/users";
import { ID_TOKEN_MAX_BODY_BYTES, idTokenBodySchema } from "@/lib/auth/schemas";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";
import { logger } from "@/lib/log";

/**
 * POST /api/auth/id-token `{ idToken }`: /appsignup?idToken=… signs in with a Google ID token
 * (spec §2). The token is verified (lib/auth/google-id-token.ts), the account found by its subject
 * (created on first use), and a normal database session starts: Set-Cookie, `{ ok, account_deleted }`.
 * Errors: 401 invalid token, 503 Google's keys unreachable, 403 cross-site, 400/415 body.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    assertSameOrigin(request);
    const { idToken } = await readJsonBody(request, idTokenBodySchema, ID_TOKEN_MAX_BODY_BYTES);
    let identity;
    try {
      identity = await verifyGoogleIdToken(idToken);
    } catch (error) {
      if (error instanceof InvalidIdTokenError) {
        throw new ApiError(401, "This sign-in from the app is invalid or has expired. Please sign in again.");
      }
      if (error instanceof IdentityProviderUnavailableError) {
        logger("auth").error({ err: error.message }, "identity provider unavailable");
        throw new ApiError(503, "Google sign-in could not be checked right now. Please try again.");
      }
      throw error;
    }
    const user = await findOrCreateGoogleUser(identity);
    const session = await createSession(user.id);
    const cookie = serializeCookie(sessionCookieName(), session.token, { ...sessionCookieOptions(), expires: session.expires });
    return Response.json(
      { ok: true, account_deleted: user.deletedAt !== null },
      { headers: { "Set-Cookie": cookie, "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error, "auth/id-token");
  }
}
