import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { getVaultState, recordUnlock } from "@/lib/server/db/queries";
import { AppError } from "@/lib/shared/errors";
import { verifyPasskeyUnlock } from "@/lib/server/vault/server";

/** POST /api/vault/unlock: record an unlock made in the browser; a passkey's assertion is verified for its counter. */
export const POST = route(api.vaultUnlock, async ({ request, user, body }) => {
  if (body.assertion) {
    const { methodId, counter } = await verifyPasskeyUnlock(request, user.id, body.assertion);
    await recordUnlock(user.id, methodId, counter);
    return reply(api.vaultUnlock, { ok: true, method_id: methodId });
  }
  const state = await getVaultState(user.id);
  if (!state.methods.some((m) => m.id === body.method_id && m.kind !== "passkey")) throw new AppError("not_found:unlock_method", "Unlock method not found.");
  await recordUnlock(user.id, body.method_id!);
  return reply(api.vaultUnlock, { ok: true, method_id: body.method_id! });
});
