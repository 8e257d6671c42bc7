import { saveTurnFor } from "@/lib/chat/save";
import { errorResponse } from "@/lib/http";

/**
 * POST /api/ns/chat_save: store a turn the browser encrypted under the vault key (issue 8), after the
 * answer of /api/ns/chat_user completed. `create: true` makes the chat with the browser-chosen
 * `chat_id` (messages at 0..n-1); otherwise the messages are appended at `first_position`, which must
 * be the chat's next position (409 otherwise: reload and retry). 409 without a vault, 404 for a chat
 * that is not the caller's. Answers `{ chat_id, last_updated }`. Checks and storage: lib/chat/save.ts
 * (a new chat from a cookie session is one database round trip, issue 12).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    return Response.json(await saveTurnFor(request));
  } catch (error) {
    return errorResponse(error, "chat_save");
  }
}
