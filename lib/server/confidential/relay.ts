import "server-only";
import http from "node:http";
import https from "node:https";
import type { ModelCode } from "@/lib/shared/llm/models";
import { assertSameOrigin } from "@/lib/server/auth/session";
import { readCookie, sessionCookieName } from "@/lib/server/auth/cookies";
import { admitUserTurn, signedInCaller } from "@/lib/server/chat/signed-in";
import { checkModel } from "@/lib/server/chat/turn";
import { clientKey } from "@/lib/server/client-address";
import { getConfig, type ConfidentialSettings } from "@/lib/server/config";
import { api } from "@/lib/shared/api/contract";
import { route } from "@/lib/server/api/route";
import { drained } from "@/lib/server/http";
import { AppError } from "@/lib/shared/errors";
import { assertAcceptingTurns, beginTurn, SHUTDOWN_MESSAGE } from "@/lib/server/lifecycle";
import { logger, securityEvent } from "@/lib/server/log";
import { consumeTurnUnlessBlocked, secondsToNextUtcDay } from "@/lib/server/quota";
import { searchQuotaExceeded } from "@/lib/server/search/quota";
import { blockedSeconds, blockKey, blockRedisKey } from "@/lib/server/rate-limit";
import { enclaveModelId, isConfidentialModel } from "../llm/confidential-models";
import { answerWithDeadlines, upstreamRefusal } from "./relay-answer";
import { configuredEnclave, MAX_CONNECT_MS } from "./enclave";
import { signContinuation, spendContinuation } from "@/lib/server/chat/continuation";
import { continuationCaller } from "@/lib/server/chat/device-turn";
import { CONTINUATION_HEADER, EHBP_ENCAPSULATED_KEY_HEADER, EHBP_RESPONSE_NONCE_HEADER, MODEL_HEADER, TINFOIL_EVENTS_HEADER, TINFOIL_EVENTS_WEB_SEARCH, WEB_SEARCH_HEADER } from "@/lib/shared/confidential/protocol";
import { parseUsageMetrics, recordUsage, USAGE_REQUEST_HEADER, USAGE_RESPONSE_HEADER, type UsageKind } from "./usage";

/**
 * The confidential relay (docs/confidential-inference.md): Hush's server between the browser
 * and the one configured enclave (CONFIDENTIAL_BASE_URL). Chat bodies are EHBP ciphertext (HPKE,
 * RFC 9180) that only the enclave and the browser can open; this module checks who may send, forwards
 * the bytes unchanged and streams the answer back. It never parses, logs or keeps a body, takes no URL,
 * host or path from the client, and never claims that anything was verified: the browser verifies the
 * attestation it relays.
 */

/** Path of the enclave's OpenAI-compatible chat endpoint: the only path the relay posts to. */
const CHAT_PATH = "/v1/chat/completions";
/** The refusal kind under which a client caught asking for another model is blocked (lib/server/rate-limit.ts). */
const MISMATCH_BLOCK = "confidential-model-mismatch";
/** HPKE encapsulated key of X25519 (RFC 9180 Nenc = 32 bytes) as hex; EHBP SPEC.md §4.1. */
const ENCAPSULATED_KEY = /^[0-9a-fA-F]{64}$/;

const UNREACHABLE_MESSAGE = "The secure enclave could not be reached. Please try again in a moment.";
const TIMEOUT_MESSAGE = "The secure enclave did not answer in time. Please try again.";
/** 403 to a client whose enclave usage named another model than its plan allows. */
export const MISMATCH_MESSAGE =
  "Confidential chat is paused for this client: the secure enclave reported a different model than the one your plan allows.";



/** A turn allowed to go to the enclave. */
export interface AdmittedTurn {
  kind: UsageKind;
  modelCode: ModelCode;
  /** Key under which a tampering client is refused (`u:<user id>` or `v:<address>`). */
  blockKey: string;
  /** The turn declared a search and it was counted: only then does the router's search opt-in go on. */
  search: boolean;
  /** The continuation token answered with this request (CONTINUATION_HEADER): the next request of the same turn. */
  continuation: string;
}

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

/** The clear headers' problems, in the order they are reported (null: none); ./relay-transcription.ts asks it too. */
export function headerError(request: Request, maxBytes: number): AppError | null {
  const code = request.headers.get(MODEL_HEADER)?.trim();
  if (!code) return new AppError("bad_request:confidential", `Name the model in the ${MODEL_HEADER} header.`);
  if (!isConfidentialModel(code)) return new AppError("bad_request:confidential", "This model is not served confidentially. Choose one of the models offered in the model picker.");
  if (!ENCAPSULATED_KEY.test(request.headers.get(EHBP_ENCAPSULATED_KEY_HEADER) ?? "")) {
    return new AppError("bad_request:confidential", `The request must be encrypted (EHBP): the ${EHBP_ENCAPSULATED_KEY_HEADER} header is missing or malformed.`);
  }
  if (!request.body) return new AppError("bad_request:confidential", "The request body is empty.");
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) return tooLarge(maxBytes);
  return null;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large:confidential", `The request is too large (limit ${Math.floor(maxBytes / (1024 * 1024))} MB).`);
}

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

export interface ForwardLimits {
  maxBytes: number;
  timeoutMs: number;
  blockSeconds: number;
}

/** Where a forwarded request goes: the chat's path, metered; or dictation's (docs/issues.md #52), whose usage is its seconds. */
export interface ForwardTarget {
  path: string;
  metered: boolean;
}

/**
 * Stream the request body to the enclave and its answer back. Only these reach the enclave: POST
 * `target.path` (CHAT_PATH by default) on the configured origin with Ehbp-Encapsulated-Key, Content-Type and Accept from the client,
 * Authorization: Bearer <the allowed model's key> and the usage-metrics request; the client gets the status,
 * Ehbp-Response-Nonce and Content-Type.
 */
export async function forward(
  request: Request,
  signal: AbortSignal,
  settings: ConfidentialSettings,
  turn: AdmittedTurn,
  limits: ForwardLimits,
  to: ForwardTarget = { path: CHAT_PATH, metered: true },
): Promise<Response> {
  const inFlight = beginTurn(signal);
  const target = new URL(to.path, settings.origin);
  const headers: Record<string, string> = {
    [EHBP_ENCAPSULATED_KEY_HEADER]: request.headers.get(EHBP_ENCAPSULATED_KEY_HEADER)!,
    "Content-Type": request.headers.get("content-type") ?? "application/octet-stream",
    Accept: request.headers.get("accept") ?? "*/*",
    "Transfer-Encoding": "chunked",
  };
  // Asked by the relay itself, so metering does not depend on the client.
  if (to.metered) headers[USAGE_REQUEST_HEADER] = "true";
  // The router's opt-in for web-search progress markers, forwarded only with its one known value and only for a
  // turn whose search was counted.
  if (turn.search && request.headers.get(TINFOIL_EVENTS_HEADER) === TINFOIL_EVENTS_WEB_SEARCH) headers[TINFOIL_EVENTS_HEADER] = TINFOIL_EVENTS_WEB_SEARCH;
  // The key of the model the plan allowed: with provider keys restricted to one model, another model
  // asked for inside the ciphertext is refused by the provider itself.
  const apiKey = settings.apiKeys[turn.modelCode];
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;

  const transport = target.protocol === "https:" ? https : http;
  const upstream = transport.request(target, { method: "POST", headers, signal: inFlight.signal });
  let failure: AppError | null = null;
  const fail = (f: AppError) => {
    failure ??= f;
    upstream.destroy(f);
  };

  upstream.on("socket", (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(() => fail(new AppError("upstream:enclave", UNREACHABLE_MESSAGE)), Math.min(MAX_CONNECT_MS, limits.timeoutMs));
    socket.once(target.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  });
  const firstByte = setTimeout(() => fail(new AppError("timeout:enclave", TIMEOUT_MESSAGE)), limits.timeoutMs);

  void pumpBody(request, upstream, limits.maxBytes, fail);

  let response: http.IncomingMessage;
  try {
    response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      upstream.once("response", resolve);
      upstream.once("error", reject);
    });
  } catch (error) {
    inFlight.end();
    throw toAppError(failure ?? error, signal);
  } finally {
    clearTimeout(firstByte);
  }
  // A body over the limit found after the enclave already answered still ends the exchange.
  if (failure) {
    response.destroy();
    inFlight.end();
    throw toAppError(failure, signal);
  }

  const status = response.statusCode ?? 502;
  const refusal = upstreamRefusal(status, response.headers);
  if (refusal) {
    response.destroy();
    inFlight.end();
    if (refusal instanceof Response) return refusal;
    throw refusal;
  }

  const out = new Headers({ "Cache-Control": "no-store", "X-Accel-Buffering": "no", "X-Content-Type-Options": "nosniff" });
  for (const name of [EHBP_RESPONSE_NONCE_HEADER, "Content-Type"]) {
    const value = response.headers[name.toLowerCase()];
    if (typeof value === "string") out.set(name, value);
  }
  if (status >= 200 && status < 300 && turn.continuation) out.set(CONTINUATION_HEADER, turn.continuation);

  let finished = false;
  const finish = (complete: boolean) => {
    if (finished) return;
    finished = true;
    inFlight.end();
    if (status < 200 || status >= 300 || !to.metered) return;
    const reported = response.headers[USAGE_RESPONSE_HEADER.toLowerCase()] ?? (complete ? response.trailers[USAGE_RESPONSE_HEADER.toLowerCase()] : undefined);
    const usage = parseUsageMetrics(typeof reported === "string" ? reported : undefined);
    if (complete || usage) recordUsage(turn.kind, turn.modelCode, usage);
    void checkServedModel(turn, usage?.model ?? null, limits.blockSeconds);
  };
  response.once("end", () => finish(true));
  response.once("close", () => finish(false));

  return new Response(answerWithDeadlines(response), { status, headers: out });
}

/**
 * Copy the client's body to the enclave, counting bytes as they stream: past `maxBytes` the upstream
 * request is destroyed (413). Backpressure: waits for `drain` when the socket is full.
 */
async function pumpBody(
  request: Request,
  upstream: http.ClientRequest,
  maxBytes: number,
  fail: (f: AppError) => void,
): Promise<void> {
  const reader = request.body!.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        fail(tooLarge(maxBytes));
        await reader.cancel().catch(() => undefined);
        return;
      }
      if (upstream.destroyed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
      if (!upstream.write(value)) await drained(upstream);
    }
    if (!upstream.destroyed) upstream.end();
  } catch {
    // The client's body failed (it went away): the enclave must not answer a truncated request.
    fail(new AppError("bad_request:confidential", "The request body was cut off."));
  }
}

function toAppError(error: unknown, clientSignal: AbortSignal): AppError {
  // A failure this module named (connect or first-byte timeout, body over the limit or cut off).
  if (error instanceof AppError) return error;
  // The client went away: nobody reads this answer.
  if (clientSignal.aborted) return new AppError("bad_request:confidential", "The request was cancelled.");
  // Aborted by a graceful shutdown past its grace period (lib/server/lifecycle.ts).
  if (error instanceof Error && error.name === "AbortError") return new AppError("unavailable:enclave", SHUTDOWN_MESSAGE, { headers: { "Retry-After": "1" } });
  logger("confidential").error({ err: error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.name : "unknown" }, "enclave unreachable");
  return new AppError("upstream:enclave", UNREACHABLE_MESSAGE);
}

/**
 * Compare the model the enclave says it served with the one the turn was allowed (the public code's
 * CONFIDENTIAL_MODEL_<TIER>). A mismatch means the client put another model inside the ciphertext:
 * its further confidential turns are refused for CONFIDENTIAL_MISMATCH_BLOCK_SECONDS, and a security
 * event is logged. Nothing is compared when the enclave does not report a model.
 */
async function checkServedModel(turn: AdmittedTurn, served: string | null, blockSeconds: number): Promise<void> {
  if (served === null) return;
  const expected = enclaveModelId(turn.modelCode);
  if (expected !== null && served.trim().toLowerCase() === expected.trim().toLowerCase()) return;
  securityEvent("confidential.model_mismatch", { route: "confidential_chat", kind: turn.kind, allowed: turn.modelCode });
  try {
    await blockKey(MISMATCH_BLOCK, turn.blockKey, blockSeconds);
  } catch (error) {
    logger("confidential").error({ err: error instanceof Error ? error.message : "unknown" }, "could not record a model-mismatch refusal");
  }
}
