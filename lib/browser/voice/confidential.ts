// A confidential model's dictation, encrypted here with EHBP to the verified enclave. Hush's server sees the
// model code, the declared seconds and the sizes, never audio or text.
import { isConfidentialRequestError, sendConfidentialRequest } from "@/lib/browser/confidential/ehbp-client";
import { verifiedEnclave } from "@/lib/browser/confidential/turn";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { AUDIO_SECONDS_HEADER, ENCLAVE_TRANSCRIPTION_MODEL, type ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { AppError } from "@/lib/shared/errors";
import type { RecordedAudio } from "./recorder";
import { TRANSCRIPTION_TIMEOUT_MESSAGE } from "./transcribe";

function fileName(type: string): string {
  if (type.startsWith("audio/ogg")) return "recording.ogg";
  if (type.startsWith("audio/mp4")) return "recording.m4a";
  return "recording.webm";
}

// The platform's own FormData encoding; the whole body goes inside the ciphertext.
async function multipart(audio: RecordedAudio): Promise<{ bytes: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set("file", audio.blob, fileName(audio.blob.type));
  form.set("model", ENCLAVE_TRANSCRIPTION_MODEL);
  form.set("response_format", "json");
  const request = new Request("https://multipart.invalid/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}

/**
 * @throws EnclaveVerificationError (nothing was sent); AppError: the relay's or the enclave's refusals,
 *   "upstream:ehbp", "timeout:stt", "offline:api"; DOMException "AbortError" when `signal` aborts
 */
export async function transcribeConfidential(
  audio: RecordedAudio,
  model: string,
  config: ConfidentialPublicConfig,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<string> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const body = await multipart(audio);
  const send = async (fresh: boolean) => {
    const { enclave } = await verifiedEnclave(config, { signal, fresh });
    try {
      return await sendConfidentialRequest(enclave, config.paths.transcriptions, body.bytes, {
        headers: { "Content-Type": body.contentType, Accept: "application/json", [config.modelHeader]: model, [AUDIO_SECONDS_HEADER]: String(audio.seconds) },
        signal,
      });
    } catch (error) {
      // The enclave restarted with another key: verify it again, once.
      if (!fresh && isConfidentialRequestError(error) && (error.reason === "key_config" || error.reason === "enclave_expired")) {
        enclaveVerificationCache.clear(enclave.hpkePublicKey);
        return null;
      }
      throw error;
    }
  };
  try {
    const sent = (await send(false)) ?? (await send(true));
    if (!sent) throw AppError.fromStatus(502, "The secure enclave could not be reached. Please try again.");
    const data = (await sent.response.json().catch(() => null)) as { text?: unknown; error?: unknown } | null;
    if (!sent.authenticated || !sent.response.ok) {
      const error = data?.error;
      const text = typeof error === "string" ? error : typeof (error as { message?: unknown } | undefined)?.message === "string" ? (error as { message: string }).message : null;
      throw AppError.fromStatus(sent.response.status, text ?? `Transcription failed (${sent.response.status}).`);
    }
    if (typeof data?.text !== "string") throw AppError.fromStatus(502, "The secure enclave's answer was not a transcript.");
    return data.text.trim();
  } catch (error) {
    if (timeout.aborted && !options.signal?.aborted) throw new AppError("timeout:stt", TRANSCRIPTION_TIMEOUT_MESSAGE);
    if (error instanceof TypeError) throw AppError.fromStatus(0, "Network error. Please try again.");
    throw error;
  }
}
