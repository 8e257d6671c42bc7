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


/**
 * The confidential relay (docs/confidential-inference.md): Hush's server between the browser
 * and the one configured enclave (CONFIDENTIAL_BASE_URL). Chat bodies are EHBP ciphertext (HPKE,
 * RFC 9180) that only the enclave and the browser can open; this module checks who may send, forwards
 * the bytes unchanged and streams the answer back. It never parses, logs or keeps a body, takes no URL,
 * host or path from the client, and never claims that anything was verified: the browser verifies the
 * attestation it relays.
 */

/** 403 to a client whose enclave usage named another model than its plan allows. */
export const MISMATCH_MESSAGE =
  "Confidential chat is paused for this client: the secure enclave reported a different model than the one your plan allows.";




/**
 * The continuation of a turn (docs/issues.md #50): the token of CONTINUATION_HEADER checked and used up, or null for
 * a new turn. The relay cannot see the calls inside the ciphertext, so the token binds none (an empty list): it
 * vouches for the caller, the turn and its step within CHAT_MAX_TOOL_STEPS, and for 5 minutes, once.
 * @throws AppError 403/400/409 of ./../chat/continuation.ts spendContinuation
 */
async function continued(request: Request, caller: string): Promise<{ turn: string; step: number } | null> {
  const token = request.headers.get(CONTINUATION_HEADER);
  if (token === null) return null;
  const claims = await spendContinuation(token, { caller, calls: [] });
  return { turn: claims.turn, step: claims.step };
}

/**
 * Continuations exist only where the chat offers device tools (CHAT_DEVICE_TOOLS, or run_code unless CODE_EXECUTION
 * is off; docs/issues.md #51): elsewhere a token would only let a client send uncounted requests, so none is issued
 * and a sent one is ignored (the request is a new, counted turn).
 */
function continuationsOn(): boolean {
  const config = getConfig();
  return config.deviceTools.length > 0 || config.codeExecution !== null;
}

/** The token for the request after this one ("" when continuations are off): step 1 of a new turn, or the next step. */
function nextToken(caller: string, resumed: { turn: string; step: number } | null): string {
  if (!continuationsOn()) return "";
  return signContinuation({ caller, turn: resumed?.turn ?? null, step: (resumed?.step ?? 0) + 1, calls: [] }).token;
}

/**
 * POST /api/confidential/chat, one confidential chat turn, through the one route wrapper like every
 * route (api.confidentialChat: the session is read in the admission's own statement, the body is the
 * client's ciphertext and never read as JSON). Checks the caller, plan and quota like POST /api/ns/chat
 * (visitor) and /api/ns/chat_user (session cookie or bearer), then streams the EHBP-encrypted body to
 * `<CONFIDENTIAL_BASE_URL>/v1/chat/completions` and the enclave's answer back. See
 * docs/confidential-inference.md for the contract; statuses: 400 model header / encapsulated key /
 * empty body, 401, 403 (deleted account, cross-site, Pro model without Pro, client refused after a model
 * mismatch), 404 off, 413 body too large, 429 quota, 502 enclave unreachable or refusing Hush's key,
 * 503 draining or enclave busy, 504 no answer in time, 422 EHBP key-config mismatch, 502 for any other
 * non-2xx of the enclave (./relay-answer.ts); otherwise the enclave's 2xx and its body, cut off past
 * CONFIDENTIAL_IDLE_TIMEOUT_MS of silence or CONFIDENTIAL_STREAM_TIMEOUT_MS in all.
 * Every 2xx answer carries a continuation token (CONTINUATION_HEADER, docs/issues.md #50); a request sending one
 * back is the same turn's next step (after the browser ran a device tool): checked, never counted, and a forged,
 * replayed, expired or over-budget token is refused (403/409/400) with nothing counted.
 */
export const relayChat = route(
  api.confidentialChat,
  // Off: 404 before anything else; a draining instance refuses new turns before anything is counted.
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

/**
 * Who sends, and whether they may: a request with an Authorization header or a session cookie is a
 * signed-in turn (the checks and order of /api/ns/chat_user through lib/server/chat/signed-in.ts, the model
 * from MODEL_HEADER, no chat id), any other a visitor's (Basic model only, the visitor quota).
 * @throws AppError 400/401/403/413/429.
 */
async function admit(request: Request): Promise<AdmittedTurn> {
  const maxBytes = getConfig().CONFIDENTIAL_MAX_REQUEST_BYTES;
  const code = request.headers.get(MODEL_HEADER)?.trim() ?? "";
  const signedIn = request.headers.has("authorization") || readCookie(request.headers.get("cookie"), sessionCookieName()) !== null;
  // A turn with search on says so in a clear header (its query stays in the ciphertext), so the
  // search is counted with the turn; past the day's searches the turn is refused and the browser sends it without.
  // The router's search opt-in declares one too, so dropping ours alone does not skip the count (docs/issues.md #54).
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
      // A continuation is the same turn: its token is checked in the quota's place and nothing is counted.
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
    // A refused client hears of its refusal first, as when this was checked before the model.
    await refuseIfBlocked(key);
    throw error;
  }
  const caller = continuationCaller({ kind: "visitor", address });
  if (continuationsOn() && request.headers.has(CONTINUATION_HEADER)) {
    await refuseIfBlocked(key);
    const resumed = await continued(request, caller);
    return { kind: "visitor", modelCode: model.code as ModelCode, blockKey: key, search: false, continuation: nextToken(caller, resumed) };
  }
  // The refusal list and the quota in one round trip (one Redis script with REDIS_URL).
  const { blocked, searched } = await consumeTurnUnlessBlocked(
    { kind: "visitor", address },
    { redisKey: blockRedisKey(MISMATCH_BLOCK, key), check: () => blockedSeconds(MISMATCH_BLOCK, key) },
    { search },
  );
  if (blocked > 0) throw mismatchRefusal(blocked);
  // The turn stays counted: visitors' counters are not given back (docs/web-search.md "Quotas").
  if (search && !searched) throw searchQuotaExceeded(secondsToNextUtcDay());
  return { kind: "visitor", modelCode: model.code as ModelCode, blockKey: key, search, continuation: nextToken(caller, null) };
}
