import "server-only";
import { api } from "@/lib/shared/api/contract";
import { reply, route } from "@/lib/server/api/route";
import { readShare } from "@/lib/server/db/shares";
import { AppError } from "@/lib/shared/errors";
import { toBase64 } from "@/lib/shared/bytes";

/** GET /api/shares/{shareId} (docs/issues.md #23): a snapshot's ciphertext; never cached, so a revoked link stops at once. */
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
