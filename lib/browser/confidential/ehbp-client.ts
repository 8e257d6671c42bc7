/**
 * The browser side of one confidential chat turn: encrypt the request body to a verified enclave's HPKE key
 * with EHBP (the `ehbp` library: HPKE RFC 9180 X25519/HKDF-SHA256/AES-256-GCM, response keys derived per
 * EHBP SPEC.md §4.4), POST it to Hush's same-origin relay, and decrypt the streamed answer.
 *
 * The key is only ever the one from a `VerifiedEnclave`; it is never fetched from `/.well-known/hpke-keys`.
 * Fails closed (EHBP SPEC.md §5.3, §5.4.1, §6.2.1): a 2xx answer without a valid `Ehbp-Response-Nonce`, an AEAD
 * failure, or a body ending inside a frame is an error, never plaintext.
 */
import { Identity, PROTOCOL, type RequestContext } from "ehbp";
import { AppError, isAppError } from "@/lib/shared/errors";
import type { VerifiedEnclave } from "./attestation";

/** Why a confidential exchange failed. */
export type ConfidentialRequestFailure =
  | "enclave_expired"
  | "not_same_origin"
  | "invalid_key"
  | "missing_nonce"
  | "invalid_nonce"
  | "key_config"
  | "decryption_failed"
  | "truncated";

/** The code of the transport's one error: the answer cannot be trusted (or the request was not sent). */
export const CONFIDENTIAL_REQUEST_FAILED = "upstream:ehbp" as const;

/** An AppError "upstream:ehbp" whose `reason` is the failure. */
export type ConfidentialRequestError = AppError<ConfidentialRequestFailure> & { readonly reason: ConfidentialRequestFailure };

function confidentialRequestError(reason: ConfidentialRequestFailure, message: string, options?: { cause?: unknown }): ConfidentialRequestError {
  return new AppError(CONFIDENTIAL_REQUEST_FAILED, message, { reason, cause: options?.cause }) as ConfidentialRequestError;
}

/** True for a transport failure thrown by `sendConfidentialRequest` or while reading its decrypted body. */
export function isConfidentialRequestError(error: unknown): error is ConfidentialRequestError {
  return isAppError(error, CONFIDENTIAL_REQUEST_FAILED) && error.reason !== undefined;
}

/** What Hush's server could observe of one turn: sizes and timing only (for the receipt). Updated while streaming. */
export interface ConfidentialReceipt {
  enclaveHost: string;
  hpkePublicKey: string;
  /** Plaintext request body bytes (never leaves the browser in clear). */
  requestPlaintextBytes: number;
  /** Bytes of the encrypted, framed request body sent to the relay. */
  requestCiphertextBytes: number;
  /** Encrypted response body bytes received so far (framing included). */
  responseCiphertextBytes: number;
  /** Decrypted response bytes delivered so far. */
  responsePlaintextBytes: number;
  /** Time spent encrypting the request (ms). */
  encryptMs: number;
  /** From the start of the call to the response headers (ms). */
  headersMs?: number;
  /** From the start of the call to the end of the decrypted body (ms); unset until the body is fully read. */
  completeMs?: number;
}

export interface ConfidentialResponse {
  /**
   * The decrypted response (streaming). Reading it throws `ConfidentialRequestError` (AppError "upstream:ehbp") on a tampered or
   * truncated frame. When `authenticated` is false it is the relay's (or an intermediary's) plaintext
   * error response, passed through unchanged: untrusted diagnostics only (EHBP SPEC.md §5.3).
   */
  response: Response;
  /** True when the body was decrypted with keys bound to this request. */
  authenticated: boolean;
  receipt: ConfidentialReceipt;
}

export interface ConfidentialRequestOptions {
  /** Extra clear headers for the relay (e.g. the public model code, `Content-Type`). Visible to Hush's server. */
  headers?: HeadersInit;
  signal?: AbortSignal;
  /** Time used for the expiry check (default now). */
  now?: Date;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * POST `body` encrypted to `enclave` through the relay at `relayUrl` and return the decrypted response.
 * @param enclave a result of `verifyEnclave` that has not expired
 * @param relayUrl the same-origin relay route (relative, or absolute on the page's origin; outside a browser
 *   any absolute URL, for tests)
 * @param body the plaintext request body (JSON text or bytes); a non-empty body is required (EHBP SPEC.md §7.4)
 * @throws ConfidentialRequestError, AppError "upstream:ehbp" with reason (enclave_expired, not_same_origin, invalid_key, missing_nonce,
 *   invalid_nonce, key_config); network errors and aborts propagate as thrown by `fetch`
 */
export async function sendConfidentialRequest(
  enclave: VerifiedEnclave,
  relayUrl: string,
  body: string | Uint8Array,
  options: ConfidentialRequestOptions = {},
): Promise<ConfidentialResponse> {
  const started = performance.now();
  if (enclave.expiresAt <= (options.now ?? new Date())) {
    throw confidentialRequestError("enclave_expired", "The enclave verification has expired; verify it again before sending.");
  }
  const url = resolveRelayUrl(relayUrl);
  const plaintext = typeof body === "string" ? new TextEncoder().encode(body) : body;
  if (plaintext.byteLength === 0) throw confidentialRequestError("invalid_key", "An empty body cannot be sent encrypted.");

  let identity: Identity;
  try {
    identity = await Identity.fromPublicKeyHex(enclave.hpkePublicKey);
  } catch (error) {
    throw confidentialRequestError("invalid_key", "The verified enclave key is not a valid X25519 key.", { cause: error });
  }

  const { request: encrypted, context } = await identity.encryptRequestWithContext(
    new Request(url, { method: "POST", headers: options.headers, body: plaintext as Uint8Array<ArrayBuffer> }),
  );
  if (!context) throw confidentialRequestError("invalid_key", "The request was not encrypted.");
  // Read the framed ciphertext once, so its size is known and the fetch sends exactly these bytes.
  const ciphertext = new Uint8Array(await encrypted.arrayBuffer());
  const encryptMs = performance.now() - started;

  const receipt: ConfidentialReceipt = {
    enclaveHost: enclave.enclaveHost,
    hpkePublicKey: enclave.hpkePublicKey,
    requestPlaintextBytes: plaintext.byteLength,
    requestCiphertextBytes: ciphertext.byteLength,
    responseCiphertextBytes: 0,
    responsePlaintextBytes: 0,
    encryptMs,
  };

  const answer = await fetch(url, {
    method: "POST",
    headers: encrypted.headers,
    body: ciphertext,
    signal: options.signal,
    credentials: "same-origin",
    redirect: "error",
  });
  receipt.headersMs = performance.now() - started;

  const nonce = answer.headers.get(PROTOCOL.RESPONSE_NONCE_HEADER);
  if (nonce === null) {
    if (answer.ok) {
      await answer.body?.cancel().catch(() => {});
      throw confidentialRequestError("missing_nonce", "The answer was not encrypted by the enclave; it was refused.");
    }
    if (answer.status === 422 && isKeyConfigProblem(answer.headers.get("content-type"))) {
      await answer.body?.cancel().catch(() => {});
      throw confidentialRequestError("key_config", "The enclave no longer uses the verified key; verify it again.");
    }
    return { response: answer, authenticated: false, receipt };
  }
  if (!HEX64.test(nonce)) {
    await answer.body?.cancel().catch(() => {});
    throw confidentialRequestError("invalid_nonce", "The answer carries an invalid response nonce; it was refused.");
  }

  return { response: await decrypt(identity, answer, context, receipt, started), authenticated: true, receipt };
}

async function decrypt(identity: Identity, answer: Response, context: RequestContext, receipt: ConfidentialReceipt, started: number): Promise<Response> {
  if (!answer.body) {
    receipt.completeMs = performance.now() - started;
    return answer;
  }
  const framed = new Response(answer.body.pipeThrough(framingGuard(receipt)), {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
  const decrypted = await identity.decryptResponseWithContext(framed, context);
  const plain = decrypted.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        receipt.responsePlaintextBytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        receipt.completeMs = performance.now() - started;
      },
    }),
  );
  const errorsMapped = mapStreamErrors(plain);
  return new Response(errorsMapped, { status: decrypted.status, statusText: decrypted.statusText, headers: decrypted.headers });
}

/**
 * Counts ciphertext bytes and checks the EHBP framing (4-byte big-endian length, then that many bytes). ehbp
 * 0.1.7 closes quietly when the body ends inside a frame; EHBP SPEC.md §6.2.1 requires rejecting that, so an
 * answer cut mid-frame errors here instead of looking complete.
 */
function framingGuard(receipt: ConfidentialReceipt): TransformStream<Uint8Array, Uint8Array> {
  let header = new Uint8Array(0);
  let remaining = 0; // ciphertext bytes still expected in the current frame
  return new TransformStream({
    transform(chunk, controller) {
      receipt.responseCiphertextBytes += chunk.byteLength;
      let i = 0;
      while (i < chunk.byteLength) {
        if (remaining > 0) {
          const take = Math.min(remaining, chunk.byteLength - i);
          remaining -= take;
          i += take;
          continue;
        }
        const need = 4 - header.byteLength;
        const part = chunk.subarray(i, i + need);
        const joined = new Uint8Array(header.byteLength + part.byteLength);
        joined.set(header);
        joined.set(part, header.byteLength);
        header = joined;
        i += part.byteLength;
        if (header.byteLength === 4) {
          remaining = new DataView(header.buffer, header.byteOffset, 4).getUint32(0, false);
          header = new Uint8Array(0);
        }
      }
      controller.enqueue(chunk);
    },
    flush() {
      if (remaining > 0 || header.byteLength > 0) {
        throw confidentialRequestError("truncated", "The encrypted answer ended in the middle of a frame; it was refused.");
      }
    },
  });
}

/** Re-throws stream failures as `ConfidentialRequestError` ("upstream:ehbp") so callers handle one error type. */
function mapStreamErrors(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(
          isConfidentialRequestError(error)
            ? error
            : confidentialRequestError("decryption_failed", "The encrypted answer failed authentication; it was refused.", { cause: error }),
        );
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function isKeyConfigProblem(contentType: string | null): boolean {
  return (contentType ?? "").split(";", 1)[0]!.trim().toLowerCase() === PROTOCOL.PROBLEM_JSON_MEDIA_TYPE;
}

function resolveRelayUrl(relayUrl: string): string {
  const origin = typeof location === "undefined" ? undefined : location.origin;
  if (origin === undefined) return new URL(relayUrl).toString();
  const url = new URL(relayUrl, origin);
  if (url.origin !== origin) throw confidentialRequestError("not_same_origin", "Encrypted chat requests go only to Hush's own relay.");
  return url.toString();
}
