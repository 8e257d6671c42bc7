import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { addVaultMethod, getVaultState, removeVaultMethod } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";
import { VAULT_MAX_BODY_BYTES, vaultAddMethodBodySchema, vaultRemoveMethodBodySchema } from "@/lib/vault/schemas";
import { toNewMethod, vaultStateJson } from "@/lib/vault/server";

/** POST /api/vault/methods `{ method }`: add an unlock method (wrapped in the browser); 409 without a vault. */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { method } = await readJsonBody(request, vaultAddMethodBodySchema, VAULT_MAX_BODY_BYTES.addMethod);
    await addVaultMethod(user.id, await toNewMethod(request, user.id, method));
    return Response.json(vaultStateJson(user.id, await getVaultState(user.id)), { status: 201 });
  } catch (error) {
    return errorResponse(error, "vault_methods");
  }
}

/**
 * DELETE /api/vault/methods `{ id }`: remove an unlock method and physically remove its row (VACUUM);
 * 400 for the last one, 404 when not the caller's.
 */
export async function DELETE(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { id } = await readJsonBody(request, vaultRemoveMethodBodySchema, VAULT_MAX_BODY_BYTES.removeMethod);
    if (!(await removeVaultMethod(user.id, id))) throw new ApiError(404, "Unlock method not found.");
    return Response.json(vaultStateJson(user.id, await getVaultState(user.id)));
  } catch (error) {
    return errorResponse(error, "vault_methods");
  }
}
