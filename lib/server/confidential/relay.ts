import "server-only";
import type { ModelCode } from "@/lib/shared/llm/models";
import { assertSameOrigin } from "@/lib/server/auth/session";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { admitUserTurn, signedInCaller } from "@/lib/server/chat/signed-in";
import { checkModel } from "@/lib/server/chat/turn";
import { clientKey } from "@/lib/server/client-address";
import { getConfig } from "@/lib/server/config";
import { api } from "@/lib/shared/api/contract";
import { route } from "@/lib/server/api/route";
import { AppError } from "@/lib/shared/errors";
import { assertAcceptingTurns } from "@/lib/server/lifecycle";
import { consumeTurnUnlessBlocked, secondsToNextUtcDay } from "@/lib/server/quota";
import { searchQuotaExceeded } from "@/lib/server/search/quota";
import { blockedSeconds, blockRedisKey } from "@/lib/server/rate-limit";
import { configuredEnclave } from "./enclave";
import { signContinuation, spendContinuation } from "@/lib/server/chat/continuation";
import { continuationCaller } from "@/lib/server/chat/device-turn";
import { CONTINUATION_HEADER, MODEL_HEADER, TINFOIL_EVENTS_HEADER, TINFOIL_EVENTS_WEB_SEARCH, WEB_SEARCH_HEADER } from "@/lib/shared/confidential/protocol";
import { forward, headerError, MISMATCH_BLOCK, type AdmittedTurn } from "./relay-forward";


// The confidential relay (docs/confidential-inference.md): it never parses, logs or keeps a body.

export const MISMATCH_MESSAGE =
  "Confidential chat is paused for this client: the secure enclave reported a different model than the one your plan allows.";




/** @throws AppError 403/400/409 */
async function continued(request: Request, caller: string): Promise<{ turn: string; step: number } | null> {
  const token = request.headers.get(CONTINUATION_HEADER);
  if (token === null) return null;
  const claims = await spendContinuation(token, { caller, calls: [] });
  return { turn: claims.turn, step: claims.step };
}

// Without device tools a continuation token would only buy uncounted requests.
function continuationsOn(): boolean {
  const config = getConfig();
  return config.deviceTools.length > 0 || config.codeExecution !== null;
}

function nextToken(caller: string, resumed: { turn: string; step: number } | null): string {
  if (!continuationsOn()) return "";
  return signContinuation({ caller, turn: resumed?.turn ?? null, step: (resumed?.step ?? 0) + 1, calls: [] }).token;
}

export const relayChat = route(
  api.confidentialChat,
  {
    before: () => {
      configuredEnclave();
      assertAcceptingTurns();
    },
  },
  async ({ request, signal }) => {
    const config = getConfig();
    const turn = await admit(request);
    return forward(request, signal, configuredEnclave(), turn, {
      maxBytes: config.CONFIDENTIAL_MAX_REQUEST_BYTES,
      timeoutMs: config.CONFIDENTIAL_TIMEOUT_MS,
      blockSeconds: config.CONFIDENTIAL_MISMATCH_BLOCK_SECONDS,
    });
  },
);

async function refuseIfBlocked(key: string): Promise<void> {
  const seconds = await blockedSeconds(MISMATCH_BLOCK, key);
  if (seconds > 0) throw mismatchRefusal(seconds);
}

function mismatchRefusal(seconds: number): AppError {
  return new AppError("forbidden:confidential_mismatch", MISMATCH_MESSAGE, { headers: { "Retry-After": String(seconds) } });
}

/** @throws AppError 400/401/403/413/429 */
async function admit(request: Request): Promise<AdmittedTurn> {
  const maxBytes = getConfig().CONFIDENTIAL_MAX_REQUEST_BYTES;
  const code = request.headers.get(MODEL_HEADER)?.trim() ?? "";
  const signedIn = request.headers.has("authorization") || readCookie(request.headers.get("cookie"), sessionCookieName()) !== null;
  // Search is declared in clear headers (the query stays in the ciphertext) so it is counted (docs/issues.md #54).
  const search = request.headers.get(WEB_SEARCH_HEADER) === "1" || request.headers.get(TINFOIL_EVENTS_HEADER) === TINFOIL_EVENTS_WEB_SEARCH;
  if (signedIn) {
    const who = await signedInCaller(request);
    let originError: unknown = null;
    try {
      assertSameOrigin(request);
    } catch (error) {
      originError = error;
    }
    let key = "";
    let resumed: { turn: string; step: number } | null = null;
    const continuing = continuationsOn() && request.headers.has(CONTINUATION_HEADER);
    const admitted = await admitUserTurn({
      who,
      modelCode: code,
      chatId: null,
      pending: [originError, headerError(request, maxBytes)],
      beforeCount: async (userId) => {
        key = `u:${userId}`;
        await refuseIfBlocked(key);
      },
      ...(continuing
        ? {
            uncounted: async (userId: string) => {
              key = `u:${userId}`;
              await refuseIfBlocked(key);
              resumed = await continued(request, key);
            },
          }
        : {}),
      search: search && !continuing ? "required" : false,
    });
    const kind = admitted.plan === "Pro" ? "pro" : "free";
    return { kind, modelCode: admitted.model.code as ModelCode, blockKey: key, search: search && !continuing, continuation: nextToken(key, resumed) };
  }
  assertSameOrigin(request);
  const problem = headerError(request, maxBytes);
  if (problem) throw problem;
  const address = clientKey(request);
  const key = `v:${address ?? "unknown"}`;
  let model: ReturnType<typeof checkModel>;
  try {
    model = checkModel(code, "Free");
  } catch (error) {
    await refuseIfBlocked(key);
    throw error;
  }
  const caller = continuationCaller({ kind: "visitor", address });
  if (continuationsOn() && request.headers.has(CONTINUATION_HEADER)) {
    await refuseIfBlocked(key);
    const resumed = await continued(request, caller);
    return { kind: "visitor", modelCode: model.code as ModelCode, blockKey: key, search: false, continuation: nextToken(caller, resumed) };
  }
  const { blocked, searched } = await consumeTurnUnlessBlocked(
    { kind: "visitor", address },
    { redisKey: blockRedisKey(MISMATCH_BLOCK, key), check: () => blockedSeconds(MISMATCH_BLOCK, key) },
    { search },
  );
  if (blocked > 0) throw mismatchRefusal(blocked);
  // Visitors' counters are not given back (docs/web-search.md "Quotas").
  if (search && !searched) throw searchQuotaExceeded(secondsToNextUtcDay());
  return { kind: "visitor", modelCode: model.code as ModelCode, blockKey: key, search, continuation: nextToken(caller, null) };
}
