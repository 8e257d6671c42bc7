// EHBP exchange with a verified enclave; fails closed (EHBP SPEC.md §5.3, §6.2.1): an unauthenticated or cut answer is an error.
import { Identity, PROTOCOL, type RequestContext } from "ehbp";
import { AppError, isAppError } from "@/lib/shared/errors";
import type { VerifiedEnclave } from "./attestation";

export type ConfidentialRequestFailure =
  | "enclave_expired"
  | "not_same_origin"
  | "invalid_key"
  | "missing_nonce"
  | "invalid_nonce"
  | "key_config"
  | "decryption_failed"
  | "truncated";

export const CONFIDENTIAL_REQUEST_FAILED = "upstream:ehbp" as const;

export type ConfidentialRequestError = AppError<ConfidentialRequestFailure> & { readonly reason: ConfidentialRequestFailure };

function confidentialRequestError(reason: ConfidentialRequestFailure, message: string, options?: { cause?: unknown }): ConfidentialRequestError {
  return new AppError(CONFIDENTIAL_REQUEST_FAILED, message, { reason, cause: options?.cause }) as ConfidentialRequestError;
}

export function isConfidentialRequestError(error: unknown): error is ConfidentialRequestError {
  return isAppError(error, CONFIDENTIAL_REQUEST_FAILED) && error.reason !== undefined;
}

export interface ConfidentialReceipt {
  enclaveHost: string;
  hpkePublicKey: string;
  requestPlaintextBytes: number;
  requestCiphertextBytes: number;
  responseCiphertextBytes: number;
  responsePlaintextBytes: number;
  encryptMs: number;
  headersMs?: number;
  completeMs?: number;
}

export interface ConfidentialResponse {
  /** When `authenticated` is false, the relay's plaintext error: untrusted (EHBP SPEC.md §5.3). */
  response: Response;
  authenticated: boolean;
  receipt: ConfidentialReceipt;
}

export interface ConfidentialRequestOptions {
  headers?: HeadersInit;
  signal?: AbortSignal;
  now?: Date;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** @throws ConfidentialRequestError with its reason; network errors and aborts as `fetch` throws them */
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

// ehbp closes quietly when the body ends inside a frame; EHBP SPEC.md §6.2.1 requires rejecting that.
function framingGuard(receipt: ConfidentialReceipt): TransformStream<Uint8Array, Uint8Array> {
  let header = new Uint8Array(0);
  let remaining = 0;
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
