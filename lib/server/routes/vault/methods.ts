import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { addVaultMethod, getVaultState, removeVaultMethod, replaceVaultMethod } from "@/lib/server/db/queries";
import { AppError } from "@/lib/shared/errors";
import { toNewMethod, vaultStateJson } from "@/lib/server/vault/server";

/** POST /api/vault/methods: add an unlock method; 409 without a vault. */
export const POST = route(api.vaultAddMethod, async ({ request, user, body }) => {
  await addVaultMethod(user.id, await toNewMethod(request, user.id, body.method));
  return reply(api.vaultAddMethod, vaultStateJson(user.id, await getVaultState(user.id)), { status: 201 });
});

/** PATCH /api/vault/methods: replace a method of the same kind and vacuum the old row; 400 below the KDF floor, 404. */
export const PATCH = route(api.vaultReplaceMethod, async ({ request, user, body }) => {
  const method = await toNewMethod(request, user.id, body.method);
  if (!(await replaceVaultMethod(user.id, body.replaces, method))) throw new AppError("not_found:unlock_method", "Unlock method not found.");
  return reply(api.vaultReplaceMethod, vaultStateJson(user.id, await getVaultState(user.id)));
});

/** DELETE /api/vault/methods: remove a method and vacuum its row; 400 for the last one, 404 when not the caller's. */
export const DELETE = route(api.vaultRemoveMethod, async ({ user, body }) => {
  if (!(await removeVaultMethod(user.id, body.id))) throw new AppError("not_found:unlock_method", "Unlock method not found.");
  return reply(api.vaultRemoveMethod, vaultStateJson(user.id, await getVaultState(user.id)));
});
