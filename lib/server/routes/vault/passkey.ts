import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { passkeyOptions } from "@/lib/server/vault/server";

/**
 * POST /api/vault/passkey `{ purpose: "register" | "unlock" }`: WebAuthn options for a passkey
 * ceremony (@simplewebauthn/server); the challenge is kept for the matching verify (5 minutes).
 * The browser adds the PRF extension's input itself.
 */
export const POST = route(api.vaultPasskey, async ({ request, user, body }) =>
  // WebAuthn options are a library type without an index signature: the contract describes them as an open object.
  reply(api.vaultPasskey, { ...(await passkeyOptions(request, user, body.purpose)) }, { headers: PRIVATE_NO_STORE }),
);
