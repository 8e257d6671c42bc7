// On-device dictation with the W3C Web Speech API's on-device mode. The browser's cloud recognition is never used:
// a recognition starts only after `available()` answers "available" and `processLocally` reads back true.
import { recordingError } from "./recorder";

/** W3C Web Speech API, AvailabilityStatus. */
export type AvailabilityStatus = "unavailable" | "downloadable" | "downloading" | "available";

/** SpeechRecognitionOptions. */
export interface OnDeviceOptions {
  langs: string[];
  processLocally: true;
}

export interface RecognitionResultEvent {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

/** lib.dom has no type for it. */
export interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  processLocally: boolean;
  onresult: ((event: RecognitionResultEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

/** The statics are absent in older browsers. */
export interface SpeechRecognitionClass {
  new (): SpeechRecognitionLike;
  readonly prototype: object;
  available?: (options: OnDeviceOptions) => Promise<AvailabilityStatus | string>;
  install?: (options: OnDeviceOptions) => Promise<boolean>;
}

/** "install": "On this device" after a download on the user's click. */
export type OnDeviceOffer = "none" | "install" | "ready";

export function speechRecognitionClass(scope: object = globalThis): SpeechRecognitionClass | null {
  const s = scope as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  const ctor = s.SpeechRecognition ?? s.webkitSpeechRecognition;
  return typeof ctor === "function" ? (ctor as SpeechRecognitionClass) : null;
}

export function hasOnDeviceMode(ctor: SpeechRecognitionClass | null): ctor is SpeechRecognitionClass & Required<Pick<SpeechRecognitionClass, "available">> {
  return ctor !== null && typeof ctor.available === "function" && "processLocally" in ctor.prototype;
}

/** The offer for `status`, `available()`'s answer with processLocally true. */
export function offerFor(ctor: SpeechRecognitionClass | null, status: string | null): OnDeviceOffer {
  if (!hasOnDeviceMode(ctor)) return "none";
  if (status === "available") return "ready";
  if ((status === "downloadable" || status === "downloading") && typeof ctor.install === "function") return "install";
  return "none";
}

/** The one gate before `start()`. */
export function mayStartLocally(status: string, recognition: Pick<SpeechRecognitionLike, "processLocally">): boolean {
  return status === "available" && recognition.processLocally === true;
}

/** The browser's own: the user speaks theirs, though Hush's pages are English. */
export function dictationLanguage(): string {
  return (typeof navigator !== "undefined" && navigator.language) || "en-US";
}

/** "unavailable" also where the browser has no on-device mode or the call fails. */
async function onDeviceStatus(lang: string, ctor = speechRecognitionClass()): Promise<string> {
  if (!hasOnDeviceMode(ctor)) return "unavailable";
  try {
    return await ctor.available({ langs: [lang], processLocally: true });
  } catch {
    return "unavailable";
  }
}

export async function probeOnDevice(lang: string, ctor = speechRecognitionClass()): Promise<OnDeviceOffer> {
  return offerFor(ctor, await onDeviceStatus(lang, ctor));
}

/** Downloads the speech model; to be called from the user's click. @returns the offer afterwards */
export async function installOnDevice(lang: string, ctor = speechRecognitionClass()): Promise<OnDeviceOffer> {
  if (!hasOnDeviceMode(ctor) || typeof ctor.install !== "function") return "none";
  try {
    await ctor.install({ langs: [lang], processLocally: true });
  } catch {
  }
  return probeOnDevice(lang, ctor);
}

/** Shaped like a recording for the Dictate button. */
export interface DeviceRecognition {
  /** 0..1: high while results keep arriving, 0 after a pause. */
  level(): number;
  elapsedMs(): number;
  /** The final text ("" when nothing was heard). @throws AppError "bad_request:recording" */
  stop(): Promise<string>;
  cancel(): void;
}

// Results arrive several times a second while the user speaks.
const SPEAKING_MS = 700;
const STOP_TIMEOUT_MS = 5000;

/** For a W3C SpeechRecognitionErrorCode; null: not a failure. */
export function failureFor(code: string): "denied" | "no_device" | "on_device_unavailable" | "failed" | null {
  if (code === "no-speech" || code === "aborted") return null;
  if (code === "not-allowed") return "denied";
  if (code === "audio-capture") return "no_device";
  if (code === "service-not-allowed" || code === "language-not-supported") return "on_device_unavailable";
  return "failed";
}

/**
 * `onEnd`: the browser ended the recognition by itself, for the caller to call `stop()`.
 * @throws AppError "bad_request:recording" "on_device_unavailable" when it cannot be held to the device.
 */
export async function startOnDevice(lang: string, onEnd: () => void, ctor = speechRecognitionClass()): Promise<DeviceRecognition> {
  const status = await onDeviceStatus(lang, ctor);
  if (!ctor || status !== "available") throw recordingError("on_device_unavailable");
  const recognition = new ctor();
  recognition.processLocally = true;
  if (!mayStartLocally(status, recognition)) throw recordingError("on_device_unavailable");
  recognition.lang = lang;
  recognition.continuous = true;
  recognition.interimResults = true;

  const finals: string[] = [];
  let lastResult = -Infinity;
  let error: string | null = null;
  let ended = false;
  let settle: (() => void) | null = null;
  recognition.onresult = (event) => {
    lastResult = performance.now();
    for (let i = event.resultIndex; i < event.results.length; i++) {
      const result = event.results[i]!;
      if (result.isFinal) finals[i] = result[0]?.transcript ?? "";
    }
  };
  recognition.onerror = (event) => {
    error ??= event.error;
  };
  recognition.onend = () => {
    ended = true;
    if (settle) settle();
    else onEnd();
  };
  const started = performance.now();
  recognition.start();

  const text = () => finals.filter((f) => f !== undefined).map((f) => f.trim()).filter(Boolean).join(" ");
  return {
    level: () => (performance.now() - lastResult < SPEAKING_MS ? 0.6 : 0),
    elapsedMs: () => performance.now() - started,
    stop: () =>
      new Promise<string>((resolve, reject) => {
        const result = () => {
          const failure = error === null ? null : failureFor(error);
          if (failure) reject(recordingError(failure));
          else resolve(text());
        };
        if (ended) return result();
        // For a browser that never ends the recognition.
        const timer = setTimeout(() => {
          settle = () => undefined;
          recognition.abort();
          result();
        }, STOP_TIMEOUT_MS);
        settle = () => {
          clearTimeout(timer);
          result();
        };
        recognition.stop();
      }),
    cancel: () => {
      recognition.onresult = null;
      recognition.onend = null;
      finals.length = 0;
      if (!ended) recognition.abort();
    },
  };
}
