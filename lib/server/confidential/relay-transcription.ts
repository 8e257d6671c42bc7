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

const TRANSCRIPTION_PATH = "/v1/audio/transcriptions";
// What EHBP framing and the multipart envelope add to a recording.
const ENVELOPE_BYTES = 64 * 1024;

/**
 * POST /api/confidential/audio/transcriptions: one dictation's EHBP ciphertext relayed blind to the enclave, counted
 * as AUDIO_SECONDS_HEADER seconds. Statuses as the chat relay's.
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
