import { api } from "@/lib/api/contract";
import { reply, route } from "@/lib/api/route";
import { addVaultMethod, getVaultState, removeVaultMethod } from "@/lib/db/queries";
import { AppError } from "@/lib/errors";
import { toNewMethod, vaultStateJson } from "@/lib/vault/server";

/** POST /api/vault/methods `{ method }`: add an unlock method (wrapped in the browser); 409 without a vault. */
export const POST = route(api.vaultAddMethod, { name: "vault_methods", auth: "user" }, async ({ request, user, body }) => {
  await addVaultMethod(user.id, await toNewMethod(request, user.id, body.method));
  return reply(api.vaultAddMethod, vaultStateJson(user.id, await getVaultState(user.id)), { status: 201 });
});

/**
 * DELETE /api/vault/methods `{ id }`: remove an unlock method and physically remove its row (VACUUM);
 * 400 for the last one, 404 when not the caller's.
 */
export const DELETE = route(api.vaultRemoveMethod, { name: "vault_methods", auth: "user" }, async ({ user, body }) => {
  if (!(await removeVaultMethod(user.id, body.id))) throw new AppError("not_found:unlock_method", "Unlock method not found.");
  return reply(api.vaultRemoveMethod, vaultStateJson(user.id, await getVaultState(user.id)));
});
