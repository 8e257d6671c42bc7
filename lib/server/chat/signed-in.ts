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

/** No chat has it, so a chat_id that is no UUID answers 404 like any foreign id. */
const NO_CHAT = "00000000-0000-0000-0000-000000000000";

export interface SignedInSend {
  userId: string;
  plan: "Free" | "Pro";
  body: ChatRequest;
  model: ModelDescriptor;
  searched: boolean;
  resume: TurnTools["resume"];
}

export type SignedInCaller = { sessionTokenHash: string } | { userId: string };

/** @throws AppError 401, 403, 503 */
export async function signedInCaller(request: Request): Promise<SignedInCaller> {
  if (request.headers.has("authorization")) return { userId: (await requireUser(request)).id };
  const token = readCookie(request.headers.get("cookie"), sessionCookieName());
  if (!token || token.length > 256) throw unauthorized();
  return { sessionTokenHash: hashSessionToken(token) };
}

export interface AdmittedUserTurn {
  userId: string;
  plan: "Free" | "Pro";
  model: ModelDescriptor;
  searched: boolean;
}

/**
 * A signed-in turn's session, account, chat, plan and quota in one round trip, refused in the order of checking them
 * one by one; only a turn passing all is counted.
 */
export async function admitUserTurn(input: {
  who: SignedInCaller;
  modelCode: string | null;
  chatId: string | null;
  pending?: unknown[];
  beforeCount?: (userId: string) => Promise<void>;
  search?: boolean | "required";
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
    quota: model && !pending.length && !input.uncounted ? sqlQuota : null,
    search: Boolean(input.search) && !input.uncounted,
    now,
  });

  if (!pre.user) throw unauthorized();
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

/** The checks of POST /api/ns/chat_user (docs/product.md §6, §7, §8). @throws AppError */
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
    pending: [originError, read.error, ...(body ? turnRefusals(body) : [])],
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
