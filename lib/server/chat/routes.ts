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

/** POST /api/ns/chat: the visitor chat call (docs/product.md §7); nothing is stored. */
export const chatVisitorRoute = route(api.chatVisitor, { handlerReadsBody: true }, async (ctx) => {
  const { request } = ctx;
  const { schema, maxBytes } = chatRequestFor();
  const body = await ctx.readBody(schema, maxBytes);
  const model = checkModel(body.model, "Free");
  const refusal = firstRefusal(turnRefusals(body));
  if (refusal) throw refusal;
  const search = Boolean(body.web_search);
  assertAcceptingTurns();
  const client = clientKey(request);
  const subject = { kind: "visitor", address: client } as const;
  const resume = await checkedContinuation(body, continuationCaller(subject), modelCallsFunctions(model.code));
  const { searched } = resume ? { searched: false } : await consumeTurnQuota(subject, { search: search && !modelCallsFunctions(model.code) });
  const read = await readAttachedFile(body, client === null ? null : `visitor:${client}`, ctx.signal);
  const turn = prepareTurn(read, model);
  return respondToTurn(ctx, turn, null, search ? { counted: searched, subject } : null, turnTools(body, subject, resume));
});

/** POST /api/ns/chat_user: the signed-in chat call (docs/product.md §7); stores nothing. */
export const chatSignedInRoute = route(
  api.chatSignedIn,
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

export const chatHistoryGetRoute = route<typeof api.chatHistoryGet, { chatId: string }>(
  api.chatHistoryGet,
  async (ctx) => ctx.json(await historyChatFor(ctx.request, ctx.params.chatId), { headers: PRIVATE_NO_STORE }),
);

/** POST /api/ns/chat_save: 409 without a vault or on a conflict, 404 for another's chat. */
export const chatSaveRoute = route(
  api.chatSave,
  // saveTurnFor runs the auth, same-origin and body steps itself.
  { handlerReadsBody: true },
  async (ctx) => {
    const { chatId, lastUpdated } = await saveTurnFor(ctx);
    return reply(api.chatSave, { chat_id: chatId, last_updated: lastUpdated.toISOString() });
  },
);

/** GET /api/ns/chat_history (docs/product.md §7): newest first, a page at a time. */
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

export const chatHistoryBatchRoute = route(api.chatHistoryBatch, async (ctx) =>
  ctx.json(await sealedChatsJson({ userId: ctx.user.id, chatIds: ctx.body.chat_ids }), { headers: PRIVATE_NO_STORE }),
);
