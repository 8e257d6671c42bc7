import { respondToTurn } from "@/lib/chat/respond";
import { chatRequestFor } from "@/lib/chat/limits";
import { checkModel, prepareTurn } from "@/lib/chat/turn";
import { clientAddress } from "@/lib/client-address";
import { errorResponse, readJsonBody } from "@/lib/http";
import { assertAcceptingTurns } from "@/lib/lifecycle";
import { consumeQuota } from "@/lib/quota";

/**
 * POST /api/ns/chat: the visitor chat call (spec §7). Basic model only; nothing is stored, so
 * chat_id is always null and save_chat is ignored. JSON, or SSE with `Accept: text/event-stream`.
 * Counts against the visitor's daily quota (lib/quota.ts; 429 when used up).
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const { schema, maxBytes } = chatRequestFor();
    const body = await readJsonBody(request, schema, maxBytes);
    const model = checkModel(body.model, "Free");
    assertAcceptingTurns();
    await consumeQuota({ kind: "visitor", address: clientAddress(request) });
    const turn = await prepareTurn(body, model, clientAddress(request));
    return await respondToTurn(request, turn, async () => ({ chatId: null }));
  } catch (error) {
    return errorResponse(error, "chat");
  }
}
