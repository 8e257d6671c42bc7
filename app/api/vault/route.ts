import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { createVault, getVaultState, setHistoryOn } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";
import { VAULT_MAX_BODY_BYTES, vaultCreateBodySchema, vaultPatchBodySchema } from "@/lib/vault/schemas";
import { toNewMethod, vaultStateJson } from "@/lib/vault/server";

const noStore = { "Cache-Control": "private, no-store" };

/**
 * GET /api/vault: the caller's vault (issue 8): `{ exists, history_on, last_unlock_at, legacy_chats,
 * methods: [{ id, kind, label, wrapped_key, kdf, credential_id, created_at, last_used_at }] }`. The
 * wrapped keys are useless without the passkey, passphrase or recovery code that only the user holds.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    return Response.json(vaultStateJson(user.id, await getVaultState(user.id)), { headers: noStore });
  } catch (error) {
    return errorResponse(error, "vault");
  }
}

/**
 * POST /api/vault `{ methods: [...] }`: create the vault with its first unlock methods (wrapped in the
 * browser) and turn saved history on; 409 when it exists. A passkey method carries its registration.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const body = await readJsonBody(request, vaultCreateBodySchema, VAULT_MAX_BODY_BYTES.create);
    if (!body.methods.some((m) => m.kind === "recovery")) throw new ApiError(400, "A vault needs a recovery code.");
    const methods = [];
    for (const m of body.methods) methods.push(await toNewMethod(request, user.id, m));
    await createVault(user.id, methods);
    return Response.json(vaultStateJson(user.id, await getVaultState(user.id)), { status: 201, headers: noStore });
  } catch (error) {
    return errorResponse(error, "vault");
  }
}

/** PATCH /api/vault `{ history_on }`: remember the Save history toggle for the account; 409 without a vault. */
export async function PATCH(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const { history_on } = await readJsonBody(request, vaultPatchBodySchema, VAULT_MAX_BODY_BYTES.patch);
    if (!(await setHistoryOn(user.id, history_on))) throw new ApiError(409, "Turn on Save history first.");
    return Response.json({ ok: true, history_on });
  } catch (error) {
    return errorResponse(error, "vault");
  }
}
