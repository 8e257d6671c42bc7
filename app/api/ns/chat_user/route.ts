import { saveTurn } from "@/lib/chat/history";
import { respondToTurn } from "@/lib/chat/respond";
import { admitSignedInSend } from "@/lib/chat/signed-in";
import { prepareTurn } from "@/lib/chat/turn";
import { errorResponse } from "@/lib/http";
import { assertAcceptingTurns } from "@/lib/lifecycle";

/**
 * POST /api/ns/chat_user: the signed-in chat call (spec §7). Like /api/ns/chat, plus: the Pro model for
 * Pro users, and with save_chat the turn is stored encrypted (a new chat on the first send, returning its
 * chat_id; appended afterwards). A chat_id that is not the caller's answers 404 before the model runs.
 * The Pro model without Pro answers 403; each send counts against the plan's daily quota (429).
 * Session, owner, plan and quota are checked in one database round trip (lib/chat/signed-in.ts).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    // A draining instance (SIGTERM) refuses new turns before anything is counted (lib/lifecycle.ts).
    assertAcceptingTurns();
    const { userId, body, model } = await admitSignedInSend(request);
    const chatId = body.chat_id ?? null;
    const turn = await prepareTurn(body, model);
    return await respondToTurn(request, turn, async (answer) => ({
      chatId: body.save_chat ? await saveTurn({ userId, chatId, turn, answer }) : chatId,
    }));
  } catch (error) {
    return errorResponse(error, "chat_user");
  }
}
