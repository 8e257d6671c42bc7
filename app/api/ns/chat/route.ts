import { api } from "@/lib/api/contract";
import { route } from "@/lib/api/route";
import { respondToTurn } from "@/lib/chat/respond";
import { chatRequestFor } from "@/lib/chat/limits";
import { checkImagesAllowed, checkModel, prepareTurn } from "@/lib/chat/turn";
import { clientKey } from "@/lib/client-address";
import { confidentialInClearError } from "@/lib/confidential/models";
import { readJsonBody } from "@/lib/http";
import { assertAcceptingTurns } from "@/lib/lifecycle";
import { consumeQuota } from "@/lib/quota";

/**
 * POST /api/ns/chat: the visitor chat call (docs/product.md §7). Basic model only; nothing is stored, so
 * chat_id is always null and save_chat is ignored. JSON, or SSE with `Accept: text/event-stream`.
 * Counts against the visitor's daily quota (lib/quota.ts; 429 when used up). The body's schema follows
 * the configured limits (chatRequestFor), so it is read here rather than by the wrapper; sameOrigin is
 * off as before (a visitor's call changes nothing of an account).
 */
export const POST = route(api.chatVisitor, { name: "chat", auth: "none", sameOrigin: false, handlerReadsBody: true }, async ({ request }) => {
  const { schema, maxBytes } = chatRequestFor();
  const body = await readJsonBody(request, schema, maxBytes);
  const model = checkModel(body.model, "Free");
  // A confidential model's turn goes through the relay, encrypted; never in clear through this route.
  const inClear = confidentialInClearError(model.code);
  if (inClear) throw inClear;
  // An image for a model that reads text only: refused before the quota is counted (docs/issues.md #23).
  checkImagesAllowed(body, model);
  assertAcceptingTurns();
  const client = clientKey(request);
  await consumeQuota({ kind: "visitor", address: client });
  const turn = prepareTurn(body, model);
  return respondToTurn(request, turn, null);
});
