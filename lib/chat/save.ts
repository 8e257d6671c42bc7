import "server-only";
import { assertSameOrigin, requireUser, requireUserWith, UNAUTHORIZED_MESSAGE } from "@/lib/auth/session";
import { readCookie, sessionCookieName } from "@/lib/auth/cookies";
import { appendSealedTurnForSession, ChatNotFoundError, createSealedChatForSession, NoVaultError, SaveConflictError, saveSealedTurn } from "@/lib/db/queries";
import { ApiError, readJsonBody } from "@/lib/http";
import { CHAT_SAVE_MAX_BODY_BYTES, chatSaveBodySchema } from "@/lib/vault/schemas";
import { toSealedMessage } from "@/lib/vault/server";

/**
 * POST /api/ns/chat_save's work (issue 8): store a turn the browser sealed under the vault key.
 * Answers in the order of checking one by one: 401 no live session, 403 deleted account, 403
 * cross-site, 413/415/400 body, 409 no vault, 404 chat not the caller's, 409 position conflict.
 *
 * A turn from a cookie session is one database round trip (issue 12, lib/db/vault.ts: a new chat with
 * createSealedChatForSession, an append with appendSealedTurnForSession: session, vault, the checks
 * and the inserts in one statement); bearer callers and refused requests go through requireUser and
 * saveSealedTurn. A request without any credential is refused before its body is read.
 * @returns `{ chat_id, last_updated }` as the route answers it.
 * @throws ApiError with those statuses, NoVaultError, SaveConflictError, ChatNotFoundError.
 */
export async function saveTurnFor(request: Request): Promise<{ chat_id: string; last_updated: string }> {
  const bearer = request.headers.has("authorization");
  if (!bearer && !readCookie(request.headers.get("cookie"), sessionCookieName())) throw new ApiError(401, UNAUTHORIZED_MESSAGE);
  const read = await readJsonBody(request, chatSaveBodySchema, CHAT_SAVE_MAX_BODY_BYTES).then(
    (input) => ({ input, error: null }),
    (error: unknown) => ({ input: null, error }),
  );
  let originError: unknown = null;
  try {
    assertSameOrigin(request);
  } catch (error) {
    originError = error;
  }
  const input = read.input;
  if (input && !originError && !bearer && (!input.create || input.first_position === 0)) {
    const now = new Date();
    const base = { now, chatId: input.chat_id, title: input.title_ciphertext, messages: input.messages.map(toSealedMessage) };
    const { value } = await requireUserWith(
      request,
      async (sessionTokenHash) => {
        const r = input.create
          ? await createSealedChatForSession({ sessionTokenHash, ...base })
          : await appendSealedTurnForSession({ sessionTokenHash, ...base, firstPosition: input.first_position });
        return { session: r.session, value: r };
      },
      // Not reached: requireUserWith takes this path only without a cookie or with Authorization.
      async () => null,
    );
    if (!value) throw new ApiError(401, UNAUTHORIZED_MESSAGE);
    if (!value.hasVault) throw new NoVaultError();
    if ("owned" in value) {
      if (!value.owned) throw new ChatNotFoundError();
      if (!value.saved) throw new SaveConflictError();
    } else if (!value.created) throw new SaveConflictError();
    return { chat_id: input.chat_id, last_updated: now.toISOString() };
  }
  const user = await requireUser(request);
  if (originError) throw originError;
  if (!input) throw read.error;
  const { lastUpdated } = await saveSealedTurn({
    userId: user.id,
    chatId: input.chat_id,
    create: input.create,
    title: input.title_ciphertext,
    firstPosition: input.first_position,
    messages: input.messages.map(toSealedMessage),
  });
  return { chat_id: input.chat_id, last_updated: lastUpdated.toISOString() };
}
