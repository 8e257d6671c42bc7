import "server-only";
import { api } from "@/lib/shared/api/contract";
import { PRIVATE_NO_STORE, reply, route } from "@/lib/server/api/route";
import { accountDeleted } from "@/lib/server/auth/session";
import { checkModel } from "@/lib/server/chat/turn";
import { clientKey } from "@/lib/server/client-address";
import { getConfig } from "@/lib/server/config";
import { invalidRequest, readWebBody } from "@/lib/server/http";
import { modelPrivacy } from "@/lib/server/llm/providers";
import { getPlan } from "@/lib/server/plans";
import { audioSecondsLeft, consumeAudioSeconds, refundAudioSeconds, type QuotaSubject } from "@/lib/server/quota";
import { AUDIO_TYPES, transcribe, type Recording } from "@/lib/server/stt/transcribe";
import { AppError } from "@/lib/shared/errors";

/**
 * POST /api/audio/transcriptions?model=&seconds=: a standard model's dictation, the recording raw or as the multipart
 * `file`; neither it nor the transcript is logged or stored. 200 `{ text, seconds }`; statuses: lib/server/openapi/audio-paths.ts.
 */
export const POST = route(api.audioTranscriptions, async ({ request, user, signal }) => {
  const config = getConfig();
  if (user?.deleted) throw accountDeleted();
  const params = new URL(request.url).searchParams;
  const query = api.audioTranscriptions.query.safeParse({ model: params.get("model") ?? undefined, seconds: params.get("seconds") ?? undefined });
  if (!query.success) throw invalidRequest(query.error);
  const { model: code, seconds } = query.data;
  const plan = user ? await getPlan(user.id) : "Free";
  const model = checkModel(code, plan);
  if (modelPrivacy(model.code, config) === "confidential") {
    throw new AppError("conflict:stt_confidential", "This model is served confidentially: its audio is encrypted in the browser to the enclave, not sent here.");
  }
  const stt = config.stt;
  if (!stt) throw new AppError("unavailable:stt", "Dictation is not set up on this server for standard models.");
  if (seconds > config.STT_MAX_SECONDS) throw new AppError("bad_request:stt_duration", `A recording may be at most ${config.STT_MAX_SECONDS} seconds long.`);

  const recording = await readRecording(request, config.STT_MAX_BYTES);
  const subject: QuotaSubject = user ? { kind: "user", userId: user.id, plan } : { kind: "visitor", address: clientKey(request) };
  const day = await consumeAudioSeconds(subject, seconds);
  let transcript;
  try {
    transcript = await transcribe(stt, recording, config.STT_TIMEOUT_MS, signal);
  } catch (error) {
    await refundAudioSeconds(subject, seconds, day).catch(() => undefined);
    throw error;
  }
  const heard = transcript.durationSeconds === null ? seconds : Math.ceil(transcript.durationSeconds);
  // Counted up to the day's limit, never refused once the words are heard: a 429 now would lose them.
  const over = heard > seconds + 1 ? heard - seconds : 0;
  const extra = over > 0 ? Math.min(over, (await audioSecondsLeft(subject)).remaining) : 0;
  if (extra > 0) await consumeAudioSeconds(subject, extra).catch(() => undefined);
  return reply(api.audioTranscriptions, { text: transcript.text, seconds: seconds + extra }, { headers: PRIVATE_NO_STORE });
});

/** Its media type is checked before any byte is read. @throws AppError 415, 413, 400 */
async function readRecording(request: Request, maxBytes: number): Promise<Recording> {
  const header = request.headers.get("content-type") ?? "";
  const type = mediaType(header);
  const multipart = type === "multipart/form-data";
  if (!multipart && !AUDIO_TYPES.has(type)) throw notAudio();
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge(maxBytes);
  let bytes: Buffer;
  try {
    bytes = await readWebBody(request, maxBytes);
  } catch (error) {
    if (error instanceof AppError && error.status === 413) throw tooLarge(maxBytes);
    throw error;
  }
  if (!multipart) {
    if (bytes.byteLength === 0) throw new AppError("bad_request:body", "The recording is empty.");
    return { bytes: new Uint8Array(bytes), type };
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": header } }).formData();
  } catch {
    throw new AppError("bad_request:body", "The request body is not valid multipart/form-data.");
  }
  const file = form.get("file");
  if (!(file instanceof Blob)) throw new AppError("bad_request:body", "Send the recording as the `file` field.");
  const fileType = mediaType(file.type);
  if (!AUDIO_TYPES.has(fileType)) throw notAudio();
  if (file.size === 0) throw new AppError("bad_request:body", "The recording is empty.");
  return { bytes: new Uint8Array(await file.arrayBuffer()), type: fileType };
}

function mediaType(header: string): string {
  return header.split(";", 1)[0]!.trim().toLowerCase();
}

function notAudio(): AppError {
  return new AppError("unsupported_media_type:stt", "Send the recording as audio (audio/webm, audio/ogg, audio/wav, audio/mpeg, audio/mp4 or audio/flac).");
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload_too_large:stt", `The recording is too large (limit ${Math.floor(maxBytes / (1024 * 1024))} MB). Record a shorter message.`);
}
