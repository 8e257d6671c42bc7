import "server-only";
import http from "node:http";
import https from "node:https";
import type { ModelCode } from "@/lib/shared/llm/models";
import type { ConfidentialSettings } from "@/lib/server/config";
import { drained } from "@/lib/server/http";
import { AppError } from "@/lib/shared/errors";
import { beginTurn, SHUTDOWN_MESSAGE } from "@/lib/server/lifecycle";
import { logger, securityEvent } from "@/lib/server/log";
import { blockKey } from "@/lib/server/rate-limit";
import { enclaveModelId, isConfidentialModel } from "../llm/confidential-models";
import { answerWithDeadlines, upstreamRefusal } from "./relay-answer";
import { MAX_CONNECT_MS } from "./enclave";
import { CONTINUATION_HEADER, EHBP_ENCAPSULATED_KEY_HEADER, EHBP_RESPONSE_NONCE_HEADER, MODEL_HEADER, TINFOIL_EVENTS_HEADER, TINFOIL_EVENTS_WEB_SEARCH } from "@/lib/shared/confidential/protocol";
import { parseUsageMetrics, recordUsage, USAGE_REQUEST_HEADER, USAGE_RESPONSE_HEADER, type UsageKind } from "./usage";

// Forwards ciphertext unchanged to the enclave (docs/confidential-inference.md); never parses, logs or keeps a body.

const CHAT_PATH = "/v1/chat/completions";
export const MISMATCH_BLOCK = "confidential-model-mismatch";
/** HPKE encapsulated key of X25519 (RFC 9180 Nenc = 32 bytes) as hex; EHBP SPEC.md §4.1. */
const ENCAPSULATED_KEY = /^[0-9a-fA-F]{64}$/;

const UNREACHABLE_MESSAGE = "The secure enclave could not be reached. Please try again in a moment.";
const TIMEOUT_MESSAGE = "The secure enclave did not answer in time. Please try again.";

export interface AdmittedTurn {
  kind: UsageKind;
  modelCode: ModelCode;
  blockKey: string;
  search: boolean;
  continuation: string;
}

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

export interface ForwardLimits {
  maxBytes: number;
  timeoutMs: number;
  blockSeconds: number;
}

export interface ForwardTarget {
  path: string;
  metered: boolean;
}

/** Stream the body to the enclave and its answer back; only the clear headers it needs pass either way. */
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
  if (to.metered) headers[USAGE_REQUEST_HEADER] = "true";
  if (turn.search && request.headers.get(TINFOIL_EVENTS_HEADER) === TINFOIL_EVENTS_WEB_SEARCH) headers[TINFOIL_EVENTS_HEADER] = TINFOIL_EVENTS_WEB_SEARCH;
  // With provider keys restricted to one model, another model asked for inside the ciphertext is refused upstream.
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
    // The enclave must not answer a truncated request.
    fail(new AppError("bad_request:confidential", "The request body was cut off."));
  }
}

function toAppError(error: unknown, clientSignal: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  if (clientSignal.aborted) return new AppError("bad_request:confidential", "The request was cancelled.");
  if (error instanceof Error && error.name === "AbortError") return new AppError("unavailable:enclave", SHUTDOWN_MESSAGE, { headers: { "Retry-After": "1" } });
  logger("confidential").error({ err: error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.name : "unknown" }, "enclave unreachable");
  return new AppError("upstream:enclave", UNREACHABLE_MESSAGE);
}

/** A served model other than the plan's: the client is refused for CONFIDENTIAL_MISMATCH_BLOCK_SECONDS. */
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
