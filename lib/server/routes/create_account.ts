import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { ensureFreePlan } from "@/lib/server/billing";

/**
 * POST /api/create_account (docs/product.md §4, §7): called after every sign-in; sets the account up on the
 * server: the Free plan. Idempotent. A deleted account is not
 * revived: 200 `{ ok: true, account_deleted: true }` and nothing changes.
 * Errors: 401, 403 (cross-site), 400/415 (body), as `{ error }`.
 */
export const POST = route(api.createAccount, async ({ user }) => {
  if (user.deleted) return reply(api.createAccount, { ok: true, account_deleted: true }, { headers: PRIVATE_NO_STORE });
  await ensureFreePlan(user.id);
  return reply(api.createAccount, { ok: true, account_deleted: false }, { headers: PRIVATE_NO_STORE });
});
