import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { passkeyOptions } from "@/lib/server/vault/server";

/** POST /api/vault/passkey: WebAuthn options; the challenge is kept 5 minutes for the matching verify. */
export const POST = route(api.vaultPasskey, async ({ request, user, body }) =>
  // Spread: a library type without an index signature, described by the contract as an open object.
  reply(api.vaultPasskey, { ...(await passkeyOptions(request, user, body.purpose)) }, { headers: PRIVATE_NO_STORE }),
);
