import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { readShare } from "@/lib/server/db/shares";
import { AppError } from "@/lib/shared/errors";
import { toBase64 } from "@/lib/shared/bytes";

/**
 * GET /api/shares/{shareId}: a shared snapshot's ciphertext, for anyone holding the link (docs/issues.md #23,
 * "Share links"); the key to open it is in the link's fragment, never here. 404 for a missing or revoked
 * share. Not stored by shared caches: a revoked link must stop working at once.
 */
export const GET = route<typeof api.shareGet, { shareId: string }>(
  api.shareGet,
  async ({ params }) => {
    const share = await readShare(params.shareId);
    if (!share) throw new AppError("not_found:share", "This shared chat was not found. It may have been revoked.");
    return reply(
      api.shareGet,
      { id: share.id, created_at: share.createdAt.toISOString(), ciphertext: toBase64(share.ciphertext) },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);
