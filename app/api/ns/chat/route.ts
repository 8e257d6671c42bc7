import { chatLimits } from "@/lib/chat/limits";
import { respondToTurn } from "@/lib/chat/respond";
import { chatRequestSchema, maxChatBodyBytes } from "@/lib/chat/schema";
import { prepareTurn } from "@/lib/chat/turn";
import { errorResponse, readJsonBody } from "@/lib/http";

/**
 * POST /api/ns/chat: the visitor chat call (spec §7). Basic model only; nothing is stored, so
 * chat_id is always null and save_chat is ignored. JSON, or SSE with `Accept: text/event-stream`.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const limits = chatLimits();
    const body = await readJsonBody(request, chatRequestSchema(limits), maxChatBodyBytes(limits));
    const turn = await prepareTurn(body, "Free");
    return await respondToTurn(request, turn, async () => ({ chatId: null }));
  } catch (error) {
    return errorResponse(error, "chat");
  }
}
