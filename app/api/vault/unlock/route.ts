import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { getVaultState, recordUnlock } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";
import { VAULT_MAX_BODY_BYTES, vaultUnlockBodySchema } from "@/lib/vault/schemas";
import { verifyPasskeyUnlock } from "@/lib/vault/server";

/**
 * POST /api/vault/unlock: record that the browser unlocked the vault (Settings' "last unlock"). The
 * unlock itself happens in the browser; a passkey's assertion is verified here so its counter and
 * last use are kept. Answers `{ ok: true, method_id }`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const input = await readJsonBody(request, vaultUnlockBodySchema, VAULT_MAX_BODY_BYTES.unlock);
    if (input.assertion) {
      const { methodId, counter } = await verifyPasskeyUnlock(request, user.id, input.assertion);
      await recordUnlock(user.id, methodId, counter);
      return Response.json({ ok: true, method_id: methodId });
    }
    const state = await getVaultState(user.id);
    if (!state.methods.some((m) => m.id === input.method_id && m.kind !== "passkey")) throw new ApiError(404, "Unlock method not found.");
    await recordUnlock(user.id, input.method_id!);
    return Response.json({ ok: true, method_id: input.method_id });
  } catch (error) {
    return errorResponse(error, "vault_unlock");
  }
}
