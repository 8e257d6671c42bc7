import { respondToTurn } from "@/lib/chat/respond";
import { admitSignedInSend } from "@/lib/chat/signed-in";
import { prepareTurn } from "@/lib/chat/turn";
import { errorResponse } from "@/lib/http";
import { assertAcceptingTurns } from "@/lib/lifecycle";

/**
 * POST /api/ns/chat_user: the signed-in chat call (spec §7). Like /api/ns/chat, plus: the Pro model for
 * Pro users. It stores nothing: since the vault (issue 8) a saved chat's turn is encrypted in the browser
 * and sent to POST /api/ns/chat_save once the answer is complete; `save_chat` is accepted for spec §7
 * and ignored, and `chat_id` is echoed. A chat_id that is not the caller's answers 404 before the model runs.
 * The Pro model without Pro answers 403; each send counts against the plan's daily quota (429).
 * Session, owner, plan and quota are checked in one database round trip (lib/chat/signed-in.ts).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    // A draining instance (SIGTERM) refuses new turns before anything is counted (lib/lifecycle.ts).
    assertAcceptingTurns();
    const { userId, body, model } = await admitSignedInSend(request);
    const chatId = body.chat_id ?? null;
    const turn = await prepareTurn(body, model, `user:${userId}`);
    return await respondToTurn(request, turn, async () => ({ chatId }));
  } catch (error) {
    return errorResponse(error, "chat_user");
  }
}
