/**
 * One dictation recording in the browser (docs/issues.md #52): the microphone through getUserMedia, recorded by
 * MediaRecorder as Opus (WebM, else Ogg; Safari's MP4 where it has neither), with a level read from an AnalyserNode
 * for the meter. The audio stays in this page's memory until it is handed to the transcription, and the microphone
 * is released when the recording stops or is cancelled.
 */
import { AppError } from "@/lib/shared/errors";

/** Why a recording could not start or finish; each has the sentence the composer shows (RECORDING_MESSAGES). */
export type RecordingFailure = "denied" | "no_device" | "unsupported" | "on_device_unavailable" | "failed";

/** The sentences of RecordingFailure: what happened and what the user can do. */
const RECORDING_MESSAGES: Record<RecordingFailure, string> = {
  denied: "Hush may not use the microphone. Allow it in your browser's site settings, then try Dictate again.",
  no_device: "No microphone was found. Connect one, then try Dictate again.",
  unsupported: "This browser cannot record audio here. Type your message instead.",
  on_device_unavailable: "On-device recognition is not available in this browser right now. Choose where your voice goes beside the model, or type your message.",
  failed: "The recording failed. Please try again.",
};

/** An AppError "bad_request:recording" whose `reason` is the failure and message its sentence. */
export function recordingError(reason: RecordingFailure, cause?: unknown): AppError<RecordingFailure> {
  return new AppError("bad_request:recording", RECORDING_MESSAGES[reason], { reason, cause });
}

/** Opus containers in order of preference (the transcription route takes each). */
const MIME_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/mp4"];

/** A finished recording. */
export interface RecordedAudio {
  blob: Blob;
  /** Whole seconds recorded (at least 1), as the transcription route counts them. */
  seconds: number;
}

/** A recording in progress. */
export interface Recording {
  /** The input level now, 0 (silence) to 1. */
  level(): number;
  /** Milliseconds since the recording started. */
  elapsedMs(): number;
  /** Stop and hand over the audio. @throws AppError "bad_request:recording" "failed" when nothing was recorded. */
  stop(): Promise<RecordedAudio>;
  /** Stop and drop the audio. */
  cancel(): void;
}

/**
 * Ask for the microphone and start recording.
 * @throws AppError "bad_request:recording" with reason "denied" (permission refused), "no_device" (no input),
 *   "unsupported" (no getUserMedia or MediaRecorder: an insecure page, an old browser) or "failed".
 */
export async function startRecording(): Promise<Recording> {
  if (typeof MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) throw recordingError("unsupported");
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    const name = error instanceof DOMException ? error.name : "";
    if (name === "NotAllowedError" || name === "SecurityError") throw recordingError("denied", error);
    if (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError") throw recordingError("no_device", error);
    throw recordingError("failed", error);
  }
  const release = () => stream.getTracks().forEach((track) => track.stop());
  let recorder: MediaRecorder;
  try {
    const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  } catch (error) {
    release();
    throw recordingError("unsupported", error);
  }
  const meter = levelMeter(stream);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const started = performance.now();
  recorder.start(250);
  const finish = () => {
    meter.close();
    release();
  };
  return {
    level: meter.level,
    elapsedMs: () => performance.now() - started,
    stop: () =>
      new Promise<RecordedAudio>((resolve, reject) => {
        const seconds = Math.max(1, Math.ceil((performance.now() - started) / 1000));
        recorder.onstop = () => {
          finish();
          const blob = new Blob(chunks, { type: recorder.mimeType || chunks[0]?.type || "audio/webm" });
          if (blob.size === 0) reject(recordingError("failed"));
          else resolve({ blob, seconds });
        };
        recorder.onerror = (event) => {
          finish();
          reject(recordingError("failed", event));
        };
        if (recorder.state === "inactive") recorder.onstop(new Event("stop"));
        else recorder.stop();
      }),
    cancel: () => {
      recorder.ondataavailable = null;
      recorder.onstop = null;
      if (recorder.state !== "inactive") recorder.stop();
      chunks.length = 0;
      finish();
    },
  };
}

/** The stream's level (RMS of the waveform, scaled) from an AnalyserNode; a silent 0 where Web Audio is missing. */
function levelMeter(stream: MediaStream): { level: () => number; close: () => void } {
  if (typeof AudioContext === "undefined") return { level: () => 0, close: () => undefined };
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  return {
    level: () => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += ((s - 128) / 128) ** 2;
      // Speech sits around 0.05–0.3 RMS: scaled so a normal voice fills most of the meter.
      return Math.min(1, Math.sqrt(sum / samples.length) * 4);
    },
    close: () => void context.close().catch(() => undefined),
  };
}
