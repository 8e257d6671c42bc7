// One dictation recording, in this page's memory only; the microphone is released when it stops or is cancelled.
import { AppError } from "@/lib/shared/errors";

export type RecordingFailure = "denied" | "no_device" | "unsupported" | "on_device_unavailable" | "failed";

const RECORDING_MESSAGES: Record<RecordingFailure, string> = {
  denied: "Hush may not use the microphone. Allow it in your browser's site settings, then try Dictate again.",
  no_device: "No microphone was found. Connect one, then try Dictate again.",
  unsupported: "This browser cannot record audio here. Type your message instead.",
  on_device_unavailable: "On-device recognition is not available in this browser right now. Choose where your voice goes beside the model, or type your message.",
  failed: "The recording failed. Please try again.",
};

export function recordingError(reason: RecordingFailure, cause?: unknown): AppError<RecordingFailure> {
  return new AppError("bad_request:recording", RECORDING_MESSAGES[reason], { reason, cause });
}

// Safari has MP4 only.
const MIME_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/mp4"];

export interface RecordedAudio {
  blob: Blob;
  /** Whole seconds, at least 1. */
  seconds: number;
}

export interface Recording {
  /** 0 (silence) to 1. */
  level(): number;
  elapsedMs(): number;
  /** @throws AppError "bad_request:recording" "failed" when nothing was recorded */
  stop(): Promise<RecordedAudio>;
  cancel(): void;
}

/** @throws AppError "bad_request:recording" with reason "denied", "no_device", "unsupported" or "failed" */
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
      // Speech sits around 0.05–0.3 RMS.
      return Math.min(1, Math.sqrt(sum / samples.length) * 4);
    },
    close: () => void context.close().catch(() => undefined),
  };
}
