import { z } from "zod";
import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { saveSealedTurn } from "@/lib/db/queries";
import { errorResponse, readJsonBody } from "@/lib/http";
import { sealed, sealedMessageSchema, toSealedMessage } from "@/lib/vault/server";

const body = z
  .object({
    chat_id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "must be a lowercase UUID"),
    create: z.boolean(),
    title_ciphertext: sealed().nullable().default(null),
    first_position: z.number().int().min(0),
    messages: z.array(sealedMessageSchema).min(1).max(10_000),
  })
  .strict();

/**
 * POST /api/ns/chat_save: store a turn the browser encrypted under the vault key (issue 8), after the
 * answer of /api/ns/chat_user completed. `create: true` makes the chat with the browser-chosen
 * `chat_id` (messages at 0..n-1); otherwise the messages are appended at `first_position`, which must
 * be the chat's next position (409 otherwise: reload and retry). 409 without a vault, 404 for a chat
 * that is not the caller's. Answers `{ chat_id, last_updated }`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const input = await readJsonBody(request, body, 50 * 1024 * 1024);
    const { lastUpdated } = await saveSealedTurn({
      userId: user.id,
      chatId: input.chat_id,
      create: input.create,
      title: input.title_ciphertext,
      firstPosition: input.first_position,
      messages: input.messages.map(toSealedMessage),
    });
    return Response.json({ chat_id: input.chat_id, last_updated: lastUpdated.toISOString() });
  } catch (error) {
    return errorResponse(error, "chat_save");
  }
}
