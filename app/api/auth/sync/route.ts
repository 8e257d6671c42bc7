import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { AuthSyncError, forwardAuthSync } from "@/lib/auth/sync";
import { clientAddress } from "@/lib/client-address";
import { consume, RateLimitedError } from "@/lib/rate-limit";
import { errorResponse, jsonError } from "@/lib/http";
import { logger } from "@/lib/log";

/**
 * /api/auth/sync (spec §7 auth-token sync; lib/auth/sync.ts): POST while signed in forwards a
 * bearer token to AUTH_SYNC_URL, DELETE forwards a DELETE. `{ ok: true, synced }`; synced is false
 * when no AUTH_SYNC_URL is configured. 502 when the receiver fails, 429 past 30 calls a minute.
 */
const LIMIT = { name: "auth-sync", points: 30, durationSeconds: 60 };

async function forward(request: Request, signedIn: boolean): Promise<Response> {
  try {
    assertSameOrigin(request);
    const user = signedIn ? await requireUser(request) : null;
    // Signed out (DELETE): per client address (lib/client-address.ts), never a header the client chose.
    const key = user ? `u:${user.id}` : `a:${clientAddress(request) ?? "unknown"}`;
    try {
      await consume(LIMIT, key);
    } catch (error) {
      if (error instanceof RateLimitedError) {
        return jsonError(429, "Too many requests.", { "Retry-After": String(error.retryAfterSeconds) });
      }
      throw error;
    }
    const synced = await forwardAuthSync(user);
    return Response.json({ ok: true, synced }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    if (error instanceof AuthSyncError) {
      logger("auth-sync").error({ err: error.message }, "sync failed");
      return jsonError(502, "The auth-token sync failed.");
    }
    return errorResponse(error, "auth/sync");
  }
}

export async function POST(request: Request): Promise<Response> {
  return forward(request, true);
}

export async function DELETE(request: Request): Promise<Response> {
  return forward(request, false);
}
