import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { noVault } from "@/lib/server/db/errors";
import { createVault, getVaultState, setHistoryOn } from "@/lib/server/db/queries";
import { AppError } from "@/lib/shared/errors";
import { toNewMethod, vaultStateJson } from "@/lib/server/vault/server";

/** GET /api/vault: the caller's vault state; its wrapped keys are useless without what only the user holds. */
export const GET = route(api.vaultGet, async ({ user }) =>
  reply(api.vaultGet, vaultStateJson(user.id, await getVaultState(user.id)), { headers: PRIVATE_NO_STORE }),
);

/** POST /api/vault: create the vault with its first unlock methods (a recovery code among them); 409 when it exists. */
export const POST = route(api.vaultCreate, async ({ request, user, body }) => {
  if (!body.methods.some((m) => m.kind === "recovery")) throw new AppError("bad_request:validation", "A vault needs a recovery code.");
  const methods = [];
  for (const m of body.methods) methods.push(await toNewMethod(request, user.id, m));
  await createVault(user.id, methods);
  return reply(api.vaultCreate, vaultStateJson(user.id, await getVaultState(user.id)), { status: 201, headers: PRIVATE_NO_STORE });
});

/** PATCH /api/vault: the Save history toggle; 409 without a vault. */
export const PATCH = route(api.vaultPatch, async ({ user, body }) => {
  if (!(await setHistoryOn(user.id, body.history_on))) throw noVault();
  return reply(api.vaultPatch, { ok: true, history_on: body.history_on });
});
