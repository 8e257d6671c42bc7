import "server-only";
import type { ModelCode } from "@/lib/shared/llm/models";
import { route } from "@/lib/server/api/route";
import { accountDeleted } from "@/lib/server/auth/session";
import { checkModel } from "@/lib/server/chat/turn";
import { clientKey } from "@/lib/server/client-address";
import { getConfig } from "@/lib/server/config";
import { assertAcceptingTurns } from "@/lib/server/lifecycle";
import { getPlan } from "@/lib/server/plans";
import { consumeAudioSeconds, refundAudioSeconds, type QuotaSubject } from "@/lib/server/quota";
import { api } from "@/lib/shared/api/contract";
import { AUDIO_SECONDS_HEADER, MODEL_HEADER } from "@/lib/shared/confidential/protocol";
import { AppError } from "@/lib/shared/errors";
import { configuredEnclave } from "./enclave";
import { forward, headerError } from "./relay-forward";

/** The enclave's OpenAI-compatible transcription endpoint (Tinfoil's router serves it): the relay's one other path. */
const TRANSCRIPTION_PATH = "/v1/audio/transcriptions";
/** What EHBP framing and the multipart envelope add to a recording of STT_MAX_BYTES. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * POST /api/confidential/audio/transcriptions (docs/issues.md #52): one confidential dictation, relayed blind like a
 * chat turn (./relay.ts `forward`): the body is EHBP ciphertext of an OpenAI audio-transcriptions multipart request
 * that only the enclave opens, forwarded unchanged to `<CONFIDENTIAL_BASE_URL>/v1/audio/transcriptions`, its sealed
 * answer streamed back. Admitted like the standard dictation route: the model of X-Hush-Model must be confidential
 * and allowed by the plan, AUDIO_SECONDS_HEADER (1..STT_MAX_SECONDS) is counted against the day's dictation seconds
 * and given back to a user when the enclave cannot be reached. Statuses: 400 headers, 403, 404 off, 413 past
 * STT_MAX_BYTES (plus the envelope), 429, 502, 503, 504 as the chat relay's.
 */
export const relayTranscription = route(
  api.confidentialTranscriptions,
  {
    before: () => {
      configuredEnclave();
      assertAcceptingTurns();
    },
  },
  async ({ request, user, signal }) => {
    const config = getConfig();
    if (user?.deleted) throw accountDeleted();
    const maxBytes = config.STT_MAX_BYTES + ENVELOPE_BYTES;
    const problem = headerError(request, maxBytes);
    if (problem) throw problem;
    const seconds = Number(request.headers.get(AUDIO_SECONDS_HEADER));
    if (!Number.isInteger(seconds) || seconds < 1) throw new AppError("bad_request:stt_duration", `Send the recording's length in whole seconds in the ${AUDIO_SECONDS_HEADER} header.`);
    if (seconds > config.STT_MAX_SECONDS) throw new AppError("bad_request:stt_duration", `A recording may be at most ${config.STT_MAX_SECONDS} seconds long.`);
    const plan = user ? await getPlan(user.id) : "Free";
    const model = checkModel(request.headers.get(MODEL_HEADER)!.trim(), plan);
    const subject: QuotaSubject = user ? { kind: "user", userId: user.id, plan } : { kind: "visitor", address: clientKey(request) };
    const day = await consumeAudioSeconds(subject, seconds);
    try {
      return await forward(
        request,
        signal,
        configuredEnclave(),
        { kind: user ? (plan === "Pro" ? "pro" : "free") : "visitor", modelCode: model.code as ModelCode, blockKey: "", search: false, continuation: "" },
        { maxBytes, timeoutMs: config.STT_TIMEOUT_MS, blockSeconds: 0 },
        { path: TRANSCRIPTION_PATH, metered: false },
      );
    } catch (error) {
      await refundAudioSeconds(subject, seconds, day).catch(() => undefined);
      throw error;
    }
  },
);
