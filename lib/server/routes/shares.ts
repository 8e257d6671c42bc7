import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { createShare, listShares, revokeShare, type ShareInfo } from "@/lib/server/db/shares";
import { AppError } from "@/lib/shared/errors";
import { fromBase64 } from "@/lib/shared/bytes";

// The owner's share links: only the snapshot's ciphertext is uploaded; its key stays in the link's fragment.

const listJson = (shares: ShareInfo[]) => ({ shares: shares.map((s) => ({ id: s.id, created_at: s.createdAt.toISOString(), bytes: s.bytes })) });

export const GET = route(api.shareList, async ({ user }) =>
  reply(api.shareList, listJson(await listShares(user.id)), { headers: PRIVATE_NO_STORE }),
);

/** POST /api/shares: store a snapshot sealed in the browser (201); 400 past MAX_SHARES_PER_USER, 413. */
export const POST = route(
  api.shareCreate,
  async ({ user, body }) => {
    const created = await createShare(user.id, fromBase64(body.ciphertext));
    return reply(api.shareCreate, { id: created.id, created_at: created.createdAt.toISOString() }, { status: 201, headers: PRIVATE_NO_STORE });
  },
);

/** DELETE /api/shares: revoke one of the caller's shares; 404 when not the caller's. */
export const DELETE = route(api.shareRevoke, async ({ user, body }) => {
  if (!(await revokeShare(user.id, body.id))) throw new AppError("not_found:share", "Share link not found.");
  return reply(api.shareRevoke, listJson(await listShares(user.id)), { headers: PRIVATE_NO_STORE });
});
