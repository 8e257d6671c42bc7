import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { finishRotation, getVaultState } from "@/lib/server/db/queries";
import { toManifestWrite, vaultStateJson } from "@/lib/server/vault/server";

/** POST /api/vault/rotation/finish: the new methods take over, old ones and devices are vacuumed; 409 while chats are left. */
export const POST = route(api.vaultRotationFinish, async ({ user, body }) => {
  await finishRotation(user.id, body.generation, toManifestWrite(body.manifest));
  return reply(api.vaultRotationFinish, vaultStateJson(user.id, await getVaultState(user.id)), { headers: PRIVATE_NO_STORE });
});
