import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";

/** GET /api/check_account_status (docs/product.md §7). */
export const GET = route(api.checkAccountStatus, async ({ user }) =>
  reply(api.checkAccountStatus, { account_deleted: user.deleted }, { headers: PRIVATE_NO_STORE }),
);
