import "server-only";
import { findModel, type ModelOption } from "@/config/models";
import { readCookie, sessionCookieName } from "@/lib/auth/cookies";
import { ACCOUNT_DELETED_MESSAGE, assertSameOrigin, requireUser, UNAUTHORIZED_MESSAGE } from "@/lib/auth/session";
import { hashSessionToken } from "@/lib/auth/session-store";
import { chatRequestFor } from "@/lib/chat/limits";
import type { ChatRequest } from "@/lib/chat/schema";
import { checkModel } from "@/lib/chat/turn";
import { loadChatPreconditions } from "@/lib/db/queries";
import { ApiError, readJsonBody } from "@/lib/http";
import { PRO_STATUSES } from "@/lib/plans";
import { consumeQuota, limitFor, QuotaExceededError, secondsToNextUtcDay, userQuotaInDatabase } from "@/lib/quota";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Bound for a chat_id that is no UUID: no chat has it, so it answers 404 like any foreign id. */
const NO_CHAT = "00000000-0000-0000-0000-000000000000";

/** A signed-in send that passed every check and was counted. */
export interface SignedInSend {
  userId: string;
  plan: "Free" | "Pro";
  body: ChatRequest;
  model: ModelOption;
}

/**
 * The checks of POST /api/ns/chat_user before the model is called (spec §6, §7, §8), with one database
 * round trip (lib/db/chat-preconditions.ts) instead of four (session, chat owner, plan, quota).
 * Answers in the same order as checking them one by one would: 401 no live session, 403 deleted
 * account, 403 cross-site, 413/415/400 body, 404 chat not the caller's, 400 unknown model, 403 Pro model
 * without Pro, 429 quota used up. Only a send that passes all of them is counted.
 * @throws ApiError with those statuses.
 */
export async function admitSignedInSend(request: Request): Promise<SignedInSend> {
  let who: { sessionTokenHash: string } | { userId: string };
  if (request.headers.has("authorization")) {
    // Bearer (desktop app): Google's token is verified first; a deleted account answers 403 here.
    who = { userId: (await requireUser(request)).id };
  } else {
    const token = readCookie(request.headers.get("cookie"), sessionCookieName());
    // Tokens we issue are 43 characters; anything far longer is not ours (session-store.ts).
    if (!token || token.length > 256) throw new ApiError(401, UNAUTHORIZED_MESSAGE);
    who = { sessionTokenHash: hashSessionToken(token) };
  }

  const { schema, maxBytes } = chatRequestFor();
  const read = await readJsonBody(request, schema, maxBytes).then(
    (body) => ({ body, error: null }),
    (error: unknown) => ({ body: null, error }),
  );
  let originError: unknown = null;
  try {
    assertSameOrigin(request);
  } catch (error) {
    originError = error;
  }
  const body = read.body;
  const model = body ? findModel(body.model) : undefined;
  const chatId = body?.chat_id == null ? null : UUID.test(body.chat_id) ? body.chat_id.toLowerCase() : NO_CHAT;
  const now = new Date();
  const sqlQuota = userQuotaInDatabase(now);
  const pre = await loadChatPreconditions({
    who,
    chatId,
    proStatuses: [...PRO_STATUSES],
    needsPro: model?.plan === "Pro",
    // Counted only when the checks made here passed too; the statement makes the rest.
    quota: body && model && !originError ? sqlQuota : null,
    now,
  });

  if (!pre.user) throw new ApiError(401, UNAUTHORIZED_MESSAGE);
  if (pre.user.deletedAt) throw new ApiError(403, ACCOUNT_DELETED_MESSAGE);
  if (originError) throw originError;
  if (!body) throw read.error;
  if (!pre.ownsChat) throw new ApiError(404, "Chat not found.");
  const checked = checkModel(body.model, pre.plan);
  const subject = { kind: "user" as const, userId: pre.user.id, plan: pre.plan };
  if (sqlQuota) {
    if (pre.counted === null) throw new QuotaExceededError(limitFor(subject), secondsToNextUtcDay(now));
  } else {
    await consumeQuota(subject, now);
  }
  return { userId: pre.user.id, plan: pre.plan, body, model: checked };
}
