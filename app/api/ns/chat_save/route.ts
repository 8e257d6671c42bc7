import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { saveSealedTurn } from "@/lib/db/queries";
import { errorResponse, readJsonBody } from "@/lib/http";
import { CHAT_SAVE_MAX_BODY_BYTES, chatSaveBodySchema } from "@/lib/vault/schemas";
import { toSealedMessage } from "@/lib/vault/server";

/**
 * POST /api/ns/chat_save: store a turn the browser encrypted under the vault key (issue 8), after the
 * answer of /api/ns/chat_user completed. `create: true` makes the chat with the browser-chosen
 * `chat_id` (messages at 0..n-1); otherwise the messages are appended at `first_position`, which must
 * be the chat's next position (409 otherwise: reload and retry); with `replace` (issue 9: an edited or
 * regenerated turn) the stored messages from `first_position` on are replaced. `tree_ciphertext` is the
 * sealed branch tree (lib/vault/schemas.ts). 409 without a vault, 404 for a chat that is not the
 * caller's. Answers `{ chat_id, last_updated }`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const input = await readJsonBody(request, chatSaveBodySchema, CHAT_SAVE_MAX_BODY_BYTES);
    const { lastUpdated } = await saveSealedTurn({
      userId: user.id,
      chatId: input.chat_id,
      create: input.create,
      title: input.title_ciphertext,
      firstPosition: input.first_position,
      messages: input.messages.map(toSealedMessage),
      replace: input.replace,
      tree: input.tree_ciphertext,
      createdAt: input.created_at,
      lastUpdated: input.last_updated,
    });
    return Response.json({ chat_id: input.chat_id, last_updated: lastUpdated.toISOString() });
  } catch (error) {
    return errorResponse(error, "chat_save");
  }
}
