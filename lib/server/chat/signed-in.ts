import "server-only";
import { findModel, type ModelDescriptor } from "@/lib/shared/llm/models";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { accountDeleted, assertSameOrigin, requireUser, unauthorized } from "@/lib/server/auth/session";
import { acceptSessionRow, hashSessionToken } from "@/lib/server/db/sessions";
import { chatRequestFor } from "@/lib/server/chat/limits";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";
import { checkModel } from "@/lib/server/chat/turn";
import { loadChatPreconditions } from "@/lib/server/db/queries";
import type { ClientExchange } from "@/lib/server/api/route";
import { PRO_STATUSES } from "@/lib/server/plans";
import { canonicalUuid } from "@/lib/shared/uuid";
import { quotaExceeded, refundUserQuota, secondsToNextUtcDay, userQuotaInDatabase } from "@/lib/server/quota";
import { searchQuotaExceeded } from "@/lib/server/search/quota";
import { chatNotFound } from "@/lib/server/db/errors";
import { turnRefusals } from "@/lib/server/chat/admission";
import { modelCallsFunctions } from "@/lib/server/llm/providers";
import { checkedContinuation, continuationCaller } from "@/lib/server/chat/device-turn";
import type { TurnTools } from "@/lib/server/chat/respond";

/** Bound for a chat_id that is no UUID: no chat has it, so it answers 404 like any foreign id. */
const NO_CHAT = "00000000-0000-0000-0000-000000000000";

/** A signed-in send that passed every check and was counted. */
export interface SignedInSend {
  userId: string;
  plan: "Free" | "Pro";
  body: ChatRequest;
  model: ModelDescriptor;
  /** A web search was asked for and counted with the send (never for a model that calls functions: its queries count as they run). */
  searched: boolean;
  /** A valid continuation of a paused turn (docs/issues.md #50), not counted again; null for a new turn. */
  resume: TurnTools["resume"];
}

/** Who a signed-in request says it is: a session cookie's token hash, or a bearer user already verified. */
export type SignedInCaller = { sessionTokenHash: string } | { userId: string };

/**
 * The caller of a signed-in request, before the database is asked: `Authorization: Bearer` (desktop app;
 * Google's token is verified here, a deleted account answers 403) or the session cookie's token hash.
 * @throws AppError 401 without credentials, 403 deleted account (bearer), 503 identity provider down.
 */
export async function signedInCaller(request: Request): Promise<SignedInCaller> {
  if (request.headers.has("authorization")) return { userId: (await requireUser(request)).id };
  const token = readCookie(request.headers.get("cookie"), sessionCookieName());
  // Tokens we issue are 43 characters; anything far longer is not ours (session-store.ts).
  if (!token || token.length > 256) throw unauthorized();
  return { sessionTokenHash: hashSessionToken(token) };
}

/** A signed-in turn that passed the session, chat, plan and quota checks and was counted. */
export interface AdmittedUserTurn {
  userId: string;
  plan: "Free" | "Pro";
  model: ModelDescriptor;
  /** A web search was asked for and counted with the turn (false: not asked, or today's searches used up). */
  searched: boolean;
}

/**
 * Session, account, chat owner, plan and quota of a signed-in turn in one database round trip
 * (lib/server/db/chat-preconditions.ts), answered in the order of checking them one by one: 401 no live session,
 * 403 deleted account, then the first of `pending` (errors the caller found in the request, e.g. 403
 * cross-site or 400 body), 404 chat not the caller's, 400 unknown model, 403 Pro model without Pro,
 * 429 quota used up. Only a turn that passes all of them is counted. With `uncounted` (a continuation's check,
 * docs/issues.md #50) nothing is counted: it runs after the model's check, in place of the quota's.
 * @param input.modelCode the public model code asked for (null when the body could not be read: then a
 *   `pending` error answers).
 * @param input.beforeCount a last check on the user, made after the statement and before the quota's
 *   answer (the confidential relay's refusal of a client caught tampering, lib/server/rate-limit.ts blockedSeconds:
 *   process memory, or Redis with REDIS_URL). The statement has counted the turn already (users are
 *   counted in the database, lib/server/quota.ts userQuotaInDatabase), so without Redis nothing else awaits
 *   before the model is called; a refusal here gives the count back (one more
 *   statement, on that refusal only).
 * @throws AppError with those statuses.
 */
export async function admitUserTurn(input: {
  who: SignedInCaller;
  modelCode: string | null;
  chatId: string | null;
  pending?: unknown[];
  beforeCount?: (userId: string) => Promise<void>;
  /**
   * Count one web search with the turn; "required": refuse the turn (429, count given back)
   * when today's searches are used up (the confidential relay, which cannot take the search out of the ciphertext).
   */
  search?: boolean | "required";
  /** Count nothing and run this check instead of the quota's (a continuation's token, lib/server/chat/device-turn.ts). */
  uncounted?: (userId: string) => Promise<void>;
}): Promise<AdmittedUserTurn> {
  const pending = (input.pending ?? []).filter((e) => e != null);
  const model = input.modelCode === null ? undefined : findModel(input.modelCode);
  const chatId = input.chatId == null ? null : (canonicalUuid(input.chatId) ?? NO_CHAT);
  const now = new Date();
  const sqlQuota = userQuotaInDatabase(now);
  const pre = await loadChatPreconditions({
    who: input.who,
    chatId,
    proStatuses: [...PRO_STATUSES],
    needsPro: model?.plan === "Pro",
    // Counted only when the checks made here passed too; the statement makes the rest.
    quota: model && !pending.length && !input.uncounted ? sqlQuota : null,
    search: Boolean(input.search) && !input.uncounted,
    now,
  });

  if (!pre.user) throw unauthorized();
  // A cookie session's rules are the session store's: using it moves its idle deadline forward (a
  // write at most once a day, so the send stays one round trip almost always).
  if ("sessionTokenHash" in input.who && !(await acceptSessionRow(pre.session, now.getTime()))) throw unauthorized();
  if (pre.user.deletedAt) throw accountDeleted();
  if (pending.length) throw pending[0];
  if (!pre.ownsChat) throw chatNotFound();
  const checked = checkModel(input.modelCode ?? "", pre.plan);
  if (input.uncounted) {
    await input.uncounted(pre.user.id);
    return { userId: pre.user.id, plan: pre.plan, model: checked, searched: false };
  }
  if (input.beforeCount) {
    try {
      await input.beforeCount(pre.user.id);
    } catch (refusal) {
      if (pre.counted !== null) await refundUserQuota(pre.user.id, sqlQuota.day, pre.searched);
      throw refusal;
    }
  }
  if (pre.counted === null) throw quotaExceeded(secondsToNextUtcDay(now));
  if (input.search === "required" && !pre.searched) {
    await refundUserQuota(pre.user.id, sqlQuota.day);
    throw searchQuotaExceeded(secondsToNextUtcDay(now));
  }
  return { userId: pre.user.id, plan: pre.plan, model: checked, searched: pre.searched };
}

/**
 * The checks of POST /api/ns/chat_user before the model is called (docs/product.md §6, §7, §8), with one database
 * round trip (lib/server/db/chat-preconditions.ts) instead of four (session, chat owner, plan, quota), plus
 * the session store's once-a-day move of the idle deadline (lib/server/db/sessions.ts acceptSessionRow).
 * Answers in the same order as checking them one by one would: 401 no live session, 403 deleted
 * account, 403 cross-site, 413/415/400 body, 409 confidential model, 400 image refused, 415/400/413 `file`
 * refused at sight, 404 chat not the caller's, 400 unknown model, 403 Pro model without Pro, 429 quota used up;
 * a `continuation` (docs/issues.md #50) is checked in the quota's place (403/400/409) and counts nothing.
 * Only a new send that passes all of them is counted.
 * `client` is the route's context: its request, and its body reader.
 * @throws AppError with those statuses.
 */
export async function admitSignedInSend(client: ClientExchange): Promise<SignedInSend> {
  const { request } = client;
  const who = await signedInCaller(request);
  const { schema, maxBytes } = chatRequestFor();
  const read = await client.readBody(schema, maxBytes).then(
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
  let resume: TurnTools["resume"] = null;
  const admitted = await admitUserTurn({
    who,
    modelCode: body?.model ?? null,
    chatId: body?.chat_id ?? null,
    // The body's own refusals, in the order both chat calls answer them (lib/server/chat/admission.ts).
    pending: [originError, read.error, ...(body ? turnRefusals(body) : [])],
    // A model that calls functions counts each query it writes as it runs (lib/server/chat/tool-loop.ts).
    search: body?.web_search === true && !modelCallsFunctions(body.model),
    ...(body?.continuation
      ? {
          uncounted: async (userId: string) => {
            resume = await checkedContinuation(body, continuationCaller({ kind: "user", userId, plan: "Free" }), modelCallsFunctions(body.model));
          },
        }
      : {}),
  });
  return { ...admitted, body: body!, resume };
}
