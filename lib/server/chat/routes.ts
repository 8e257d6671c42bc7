import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { historyChatFor, historyPageFor, saveTurnFor } from "@/lib/server/chat/history";
import { sealedChatsJson } from "@/lib/server/db/history-json";
import { requireUser } from "@/lib/server/auth/session";
import { invalidRequest } from "@/lib/server/http";
import { respondToTurn } from "@/lib/server/chat/respond";
import { chatRequestFor } from "@/lib/server/chat/limits";
import { admitSignedInSend } from "@/lib/server/chat/signed-in";
import { firstRefusal, turnRefusals } from "@/lib/server/chat/admission";
import { checkModel, prepareTurn } from "@/lib/server/chat/turn";
import { readAttachedFile } from "@/lib/server/chat/file";
import { clientKey } from "@/lib/server/client-address";
import { modelCallsFunctions } from "@/lib/server/llm/providers";
import { assertAcceptingTurns } from "@/lib/server/lifecycle";
import { consumeTurnQuota } from "@/lib/server/quota";
import { checkedContinuation, continuationCaller, turnTools } from "@/lib/server/chat/device-turn";

/**
 * The handlers of the hot routes, in one home for their two servers: the route files
 * (app/api/ns/chat/route.ts, app/api/ns/chat_user/route.ts, app/api/ns/chat_save/route.ts,
 * app/api/ns/chat_history/route.ts, app/api/ns/chat_history/batch/route.ts,
 * app/api/ns/chat_history/[chatId]/route.ts)
 * export them to Next, and the hot path of server.mjs (lib/server/hot-path.ts) calls them
 * without Next's route-handler machinery. Each answers through lib/server/api/route.ts, and reaches its
 * client (signal, body, answer) only through the context it is handed.
 */

/**
 * POST /api/ns/chat: the visitor chat call (docs/product.md §7). Basic model only; nothing is stored, so
 * chat_id is always null and save_chat is ignored. JSON, or SSE with `Accept: text/event-stream`. A `file` (the
 * spec's PDF data URL) is read in the server's PDF worker for a standard model (lib/server/chat/file.ts).
 * Counts against the visitor's daily quota (lib/server/quota.ts; 429 when used up) in one round trip to the
 * database or Redis (the day's salt is cached). The body's schema follows the configured limits
 * (chatRequestFor), so it is read here rather than by the wrapper; sameOrigin is off as before (a
 * visitor's call changes nothing of an account). A `continuation` (docs/issues.md #50) is checked where the turn
 * would be counted and, valid, is not counted again; refused (403/400/409), nothing is counted.
 */
export const chatVisitorRoute = route(api.chatVisitor, { handlerReadsBody: true }, async (ctx) => {
  const { request } = ctx;
  const { schema, maxBytes } = chatRequestFor();
  const body = await ctx.readBody(schema, maxBytes);
  const model = checkModel(body.model, "Free");
  // The body's own refusals, in the order both chat calls answer them (lib/server/chat/admission.ts).
  const refusal = firstRefusal(turnRefusals(body));
  if (refusal) throw refusal;
  const search = Boolean(body.web_search);
  assertAcceptingTurns();
  const client = clientKey(request);
  const subject = { kind: "visitor", address: client } as const;
  // The turn and its search in one step (lib/server/quota.ts); over the search limit the turn is answered without.
  // A model that calls functions counts each query it writes as it runs instead (lib/server/chat/tool-loop.ts).
  // A continuation (docs/issues.md #50) is checked in the count's place: valid, it is the same turn, not counted again.
  const resume = await checkedContinuation(body, continuationCaller(subject), modelCallsFunctions(model.code));
  const { searched } = resume ? { searched: false } : await consumeTurnQuota(subject, { search: search && !modelCallsFunctions(model.code) });
  const read = await readAttachedFile(body, client === null ? null : `visitor:${client}`, ctx.signal);
  const turn = prepareTurn(read, model);
  return respondToTurn(ctx, turn, null, search ? { counted: searched, subject } : null, turnTools(body, subject, resume));
});

/**
 * POST /api/ns/chat_user: the signed-in chat call (docs/product.md §7). Like /api/ns/chat, plus: the Pro model for
 * Pro users. It stores nothing: since the vault a saved chat's turn is encrypted in the browser
 * and sent to POST /api/ns/chat_save once the answer is complete; `save_chat` is accepted for docs/product.md §7
 * and ignored, and `chat_id` is echoed. A chat_id that is not the caller's answers 404 before the model runs.
 * The Pro model without Pro answers 403; each send counts against the plan's daily quota (429). A `file` is read
 * as on /api/ns/chat (lib/server/chat/file.ts), after the send was admitted and counted.
 * Session, owner, plan and quota are checked in one database round trip (lib/server/chat/signed-in.ts), so the
 * wrapper's own auth step is off ("none"); same-origin is checked there too.
 */
export const chatSignedInRoute = route(
  api.chatSignedIn,
  // A draining instance (SIGTERM) refuses new turns before anything is counted (lib/server/lifecycle.ts).
  { handlerReadsBody: true, before: assertAcceptingTurns },
  async (ctx) => {
    const { body, model, searched, userId, plan, resume } = await admitSignedInSend(ctx);
    const read = await readAttachedFile(body, `user:${userId}`, ctx.signal);
    const turn = prepareTurn(read, model);
    const subject = { kind: "user", userId, plan } as const;
    const search = body.web_search ? { counted: searched, subject } : null;
    return respondToTurn(ctx, turn, body.chat_id ?? null, search, turnTools(body, subject, resume));
  },
);

/**
 * GET /api/ns/chat_history/{chat_id}: one saved chat with its messages; 404 when not the caller's.
 * Session and chat in one database round trip, the JSON text (contract chatSchema) made by the database
 * so the wrapper's own auth step is off.
 */
export const chatHistoryGetRoute = route<typeof api.chatHistoryGet, { chatId: string }>(
  api.chatHistoryGet,
  async (ctx) => ctx.json(await historyChatFor(ctx.request, ctx.params.chatId), { headers: PRIVATE_NO_STORE }),
);

/**
 * POST /api/ns/chat_save: store a turn the browser encrypted under the vault key, after the
 * answer of /api/ns/chat_user completed. `create: true` makes the chat with the browser-chosen
 * `chat_id`, unique per user (another user's id is a free one), messages at
 * 0..n-1; otherwise the messages are appended at `first_position`, which must be the chat's next position (409 otherwise: reload and retry); with `replace` (an edited or
 * regenerated turn) the stored messages from `first_position` on are replaced. `tree_ciphertext` is the
 * sealed branch tree (lib/shared/vault/schemas.ts). 409 without a vault, 404 for a chat that is not the
 * caller's. `integrity`: the chat's new sealed header and the sealed manifest, each naming
 * the version it replaces (409 conflict:chat_version or conflict:manifest when another device wrote first).
 * Answers `{ chat_id, last_updated }`. On the hot path: a saved turn is this request after every
 * chat_user answer.
 */
export const chatSaveRoute = route(
  api.chatSave,
  // The session is read in the save's own statement (lib/server/chat/history.ts saveTurnFor), so the wrapper's
  // auth, same-origin and body steps are off; saveTurnFor does them in their usual order.
  { handlerReadsBody: true },
  async (ctx) => {
    const { chatId, lastUpdated } = await saveTurnFor(ctx);
    return reply(api.chatSave, { chat_id: chatId, last_updated: lastUpdated.toISOString() });
  },
);

/**
 * GET /api/ns/chat_history?limit=50&cursor=…: the caller's saved chats, newest first by last_updated
 * (docs/product.md §2, §7), a page at a time: `{ chat_history: [{ chat_id, display_name, display_name_ciphertext,
 * last_updated }], next_cursor }`. Messages come per chat from /api/ns/chat_history/{chat_id}, so a long
 * history loads quickly. Session and page in one database round trip, the JSON text made by the database
 * so the wrapper's own auth step is off.
 */
export const chatHistoryListRoute = route(api.chatHistoryList, async (ctx) => {
  const { request } = ctx;
  const params = new URL(request.url).searchParams;
  const parsed = api.chatHistoryList.query.safeParse({ limit: params.get("limit") ?? undefined, cursor: params.get("cursor") });
  if (!parsed.success) {
    await requireUser(request); // 401/403 come before 400
    throw invalidRequest(parsed.error);
  }
  return ctx.json(await historyPageFor(request, parsed.data.limit, parsed.data.cursor), { headers: PRIVATE_NO_STORE });
});

/**
 * POST /api/ns/chat_history/batch `{ chat_ids }` (search and export read the whole history in a
 * few requests, not one per chat): up to 100 of the caller's saved chats with their messages, each in the
 * shape of GET /api/ns/chat_history/{chat_id} (ciphertext only), in the order asked:
 * `{ chats, remaining_chat_ids }`. Ids that are not the caller's chats are left out silently; chats left
 * out because the response reached its size bound are in `remaining_chat_ids`, to ask for again.
 * A read, but a POST for its body: same-origin is checked as for writes.
 */
export const chatHistoryBatchRoute = route(api.chatHistoryBatch, async (ctx) =>
  // The JSON text made by the database, in the contract's chatHistoryBatch shape.
  ctx.json(await sealedChatsJson({ userId: ctx.user.id, chatIds: ctx.body.chat_ids }), { headers: PRIVATE_NO_STORE }),
);
