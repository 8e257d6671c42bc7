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
 * POST /api/audio/transcriptions?model=<code>&seconds=<n> (docs/issues.md #52, "Dictate"): a standard model's
 * dictation. The body is the recording (Content-Type audio/webm, audio/ogg, audio/wav, audio/mpeg, audio/mp4 or
 * audio/flac, parameters such as `;codecs=opus` allowed), raw or as the `file` field of multipart/form-data. It is
 * held in memory for this request, sent to the configured provider (lib/server/config-stt.ts) and dropped; neither it
 * nor the transcript is logged or stored. `seconds` is counted against the day's dictation seconds
 * (STT_SECONDS_PER_DAY_*) once the body is read, and given back to a user when the transcription fails; a provider
 * that reports a longer recording has the difference counted too.
 * Statuses: 200 `{ text, seconds }`; 400 bad query or recording longer than STT_MAX_SECONDS; 403 Pro model without Pro,
 * deleted account, cross-site; 409 a confidential model (its audio goes to the enclave); 413 past STT_MAX_BYTES;
 * 415 not audio; 422 the provider refused the audio; 429 rate limit, day's seconds used up, provider busy;
 * 502 provider failed; 503 dictation off for standard models; 504 provider too slow.
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
  // The browser measured the recording; a provider that heard more (past a second of rounding) has the rest counted.
  const heard = transcript.durationSeconds === null ? seconds : Math.ceil(transcript.durationSeconds);
  // Counted up to the day's limit, never refused once the words are heard: a 429 now would lose them.
  const over = heard > seconds + 1 ? heard - seconds : 0;
  const extra = over > 0 ? Math.min(over, (await audioSecondsLeft(subject)).remaining) : 0;
  if (extra > 0) await consumeAudioSeconds(subject, extra).catch(() => undefined);
  return reply(api.audioTranscriptions, { text: transcript.text, seconds: seconds + extra }, { headers: PRIVATE_NO_STORE });
});

/**
 * The recording of `request`: its media type checked before any byte is read, at most `maxBytes`.
 * @throws AppError 415 not audio, 413 too large, 400 empty or a multipart body without an audio `file`.
 */
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
    // The route's own sentence for its limit.
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
