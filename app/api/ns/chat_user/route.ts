import { assertSameOrigin, requireUser } from "@/lib/auth/session";
import { saveTurn } from "@/lib/chat/history";
import { chatLimits } from "@/lib/chat/limits";
import { respondToTurn } from "@/lib/chat/respond";
import { chatRequestSchema, maxChatBodyBytes } from "@/lib/chat/schema";
import { checkModel, prepareTurn } from "@/lib/chat/turn";
import { isOwnChat } from "@/lib/db/queries";
import { ApiError, errorResponse, readJsonBody } from "@/lib/http";
import { assertAcceptingTurns } from "@/lib/lifecycle";
import { getPlan } from "@/lib/plans";
import { consumeQuota } from "@/lib/quota";

/**
 * POST /api/ns/chat_user: the signed-in chat call (spec §7). Like /api/ns/chat, plus: the Pro model for
 * Pro users, and with save_chat the turn is stored encrypted (a new chat on the first send, returning its
 * chat_id; appended afterwards). A chat_id that is not the caller's answers 404 before the model runs.
 * The Pro model without Pro answers 403; each send counts against the plan's daily quota (429).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const user = await requireUser(request);
    assertSameOrigin(request);
    const limits = chatLimits();
    const body = await readJsonBody(request, chatRequestSchema(limits), maxChatBodyBytes(limits));
    const chatId = body.chat_id ?? null;
    if (chatId !== null && !(await isOwnChat({ userId: user.id, chatId }))) throw new ApiError(404, "Chat not found.");
    const plan = await getPlan(user.id);
    const model = checkModel(body.model, plan);
    assertAcceptingTurns();
    await consumeQuota({ kind: "user", userId: user.id, plan });
    const turn = await prepareTurn(body, model);
    return await respondToTurn(request, turn, async (answer) => ({
      chatId: body.save_chat ? await saveTurn({ userId: user.id, chatId, turn, answer }) : chatId,
    }));
  } catch (error) {
    return errorResponse(error, "chat_user");
  }
}
