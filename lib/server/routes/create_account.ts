import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { ensureFreePlan } from "@/lib/server/billing";

/** POST /api/create_account (docs/product.md §4, §7): the Free plan, idempotent; a deleted account is not revived. */
export const POST = route(api.createAccount, async ({ user }) => {
  if (user.deleted) return reply(api.createAccount, { ok: true, account_deleted: true }, { headers: PRIVATE_NO_STORE });
  await ensureFreePlan(user.id);
  return reply(api.createAccount, { ok: true, account_deleted: false }, { headers: PRIVATE_NO_STORE });
});
