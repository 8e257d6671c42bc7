import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { serializeCookie, sessionCookieName, sessionCookieOptions } from "@/lib/server/auth/cookies";
import { verifyGoogleIdToken } from "@/lib/server/auth/google-id-token";
import { createSession } from "@/lib/server/db/sessions";
import { findOrCreateGoogleUser } from "@/lib/server/auth/users";
import { AppError, isAppError } from "@/lib/shared/errors";
import { logger } from "@/lib/server/log";

/** POST /api/auth/id-token (docs/product.md §2): sign in with a Google ID token; 401 invalid, 503 Google unreachable. */
export const POST = route(api.authIdToken, async ({ body }) => {
  let identity;
  try {
    identity = await verifyGoogleIdToken(body.idToken);
  } catch (error) {
    if (isAppError(error, "unauthorized")) {
      throw new AppError("unauthorized:id_token", "This sign-in from the app is invalid or has expired. Please sign in again.");
    }
    if (isAppError(error, "unavailable:identity_provider")) {
      logger("auth").error({ err: error.message }, "identity provider unavailable");
      throw new AppError("unavailable:identity_provider", "Google sign-in could not be checked right now. Please try again.");
    }
    throw error;
  }
  const user = await findOrCreateGoogleUser(identity);
  const session = await createSession(user.id);
  const cookie = serializeCookie(sessionCookieName(), session.token, { ...sessionCookieOptions(), expires: session.expires });
  return reply(
    api.authIdToken,
    { ok: true, account_deleted: user.deletedAt !== null },
    { headers: { "Set-Cookie": cookie, "Cache-Control": "private, no-store" } },
  );
});
