import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { finishRotation, getVaultState } from "@/lib/server/db/queries";
import { toManifestWrite, vaultStateJson } from "@/lib/server/vault/server";

/**
 * POST /api/vault/rotation/finish `{ generation, manifest }`: once every chat is sealed under
 * the new key, the old unlock methods and the remembered devices are deleted and the new methods take
 * over (the key tables VACUUMed); answers the vault's new state. 409 while chats are left under the old
 * key, or when the manifest changed meanwhile.
 */
export const POST = route(api.vaultRotationFinish, async ({ user, body }) => {
  await finishRotation(user.id, body.generation, toManifestWrite(body.manifest));
  return reply(api.vaultRotationFinish, vaultStateJson(user.id, await getVaultState(user.id)), { headers: PRIVATE_NO_STORE });
});
