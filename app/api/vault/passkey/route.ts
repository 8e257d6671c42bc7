import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { errorResponse, readJsonBody } from "@/lib/http";
import { VAULT_MAX_BODY_BYTES, vaultPasskeyBodySchema } from "@/lib/vault/schemas";
import { passkeyOptions } from "@/lib/vault/server";

/**
 * POST /api/vault/passkey `{ purpose: "register" | "unlock" }`: WebAuthn options for a passkey
 * ceremony (@simplewebauthn/server); the challenge is kept for the matching verify (5 minutes).
 * The browser adds the PRF extension's input itself.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { purpose } = await readJsonBody(request, vaultPasskeyBodySchema, VAULT_MAX_BODY_BYTES.passkey);
    return Response.json(await passkeyOptions(request, user, purpose), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error, "vault_passkey");
  }
}
