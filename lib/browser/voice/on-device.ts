/**
 * On-device dictation (docs/issues.md #52) with the W3C Web Speech API's on-device mode: static
 * `SpeechRecognition.available({ langs, processLocally })` and `install()`, `processLocally` on a recognition. Nothing
 * reaches Hush or anyone else and no seconds are counted. The browser's cloud recognition is never used: only
 * `startOnDevice` makes a recognition, after `available()` answers "available", with `processLocally` read back true;
 * a browser without `available()` or `processLocally` is offered nothing.
 */
import { recordingError } from "./recorder";

/** The answers of `SpeechRecognition.available()` (W3C Web Speech API, AvailabilityStatus). */
export type AvailabilityStatus = "unavailable" | "downloadable" | "downloading" | "available";

/** `available()`/`install()`'s options (SpeechRecognitionOptions). */
export interface OnDeviceOptions {
  langs: string[];
  processLocally: true;
}

/** The part of a SpeechRecognitionEvent read here: the results from `resultIndex` on, each with its best alternative. */
export interface RecognitionResultEvent {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

/** The part of a SpeechRecognition instance used here (lib.dom has no type for it). */
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

/** The SpeechRecognition constructor with the on-device statics (each absent in older browsers). */
export interface SpeechRecognitionClass {
  new (): SpeechRecognitionLike;
  readonly prototype: object;
  available?: (options: OnDeviceOptions) => Promise<AvailabilityStatus | string>;
  install?: (options: OnDeviceOptions) => Promise<boolean>;
}

/** What the dictation choice offers: nothing; "On this device" after a download on the user's click; "On this device". */
export type OnDeviceOffer = "none" | "install" | "ready";

/** The page's SpeechRecognition (unprefixed, else webkit-prefixed), or null where there is none. */
export function speechRecognitionClass(scope: object = globalThis): SpeechRecognitionClass | null {
  const s = scope as { SpeechRecognition?: unknown; webkitSpeechRecognition?: unknown };
  const ctor = s.SpeechRecognition ?? s.webkitSpeechRecognition;
  return typeof ctor === "function" ? (ctor as SpeechRecognitionClass) : null;
}

/** The browser can be held to on-device recognition: it has `available()` and a `processLocally` attribute. */
export function hasOnDeviceMode(ctor: SpeechRecognitionClass | null): ctor is SpeechRecognitionClass & Required<Pick<SpeechRecognitionClass, "available">> {
  return ctor !== null && typeof ctor.available === "function" && "processLocally" in ctor.prototype;
}

/**
 * The offer for `status`, `available()`'s answer with processLocally true: "ready" on "available"; "install" on
 * "downloadable" or "downloading" where the browser has `install()`; otherwise (no on-device mode, "unavailable",
 * anything else) "none", so nothing is offered.
 */
export function offerFor(ctor: SpeechRecognitionClass | null, status: string | null): OnDeviceOffer {
  if (!hasOnDeviceMode(ctor)) return "none";
  if (status === "available") return "ready";
  if ((status === "downloadable" || status === "downloading") && typeof ctor.install === "function") return "install";
  return "none";
}

/** The one gate before `start()`: `available()` said "available" and the recognition reads back `processLocally` true. */
export function mayStartLocally(status: string, recognition: Pick<SpeechRecognitionLike, "processLocally">): boolean {
  return status === "available" && recognition.processLocally === true;
}

/** The language recognised: the browser's own (the user speaks theirs; Hush's pages are English). */
export function dictationLanguage(): string {
  return (typeof navigator !== "undefined" && navigator.language) || "en-US";
}

/** `available()` for `lang` on the device only; "unavailable" where the browser has no on-device mode or the call fails. */
async function onDeviceStatus(lang: string, ctor = speechRecognitionClass()): Promise<string> {
  if (!hasOnDeviceMode(ctor)) return "unavailable";
  try {
    return await ctor.available({ langs: [lang], processLocally: true });
  } catch {
    return "unavailable";
  }
}

/** What on-device dictation offers for `lang` now (offerFor of onDeviceStatus). */
export async function probeOnDevice(lang: string, ctor = speechRecognitionClass()): Promise<OnDeviceOffer> {
  return offerFor(ctor, await onDeviceStatus(lang, ctor));
}

/**
 * Download the browser's speech model for `lang` (`install()`, to be called from the user's click).
 * @returns the offer afterwards: "ready" once installed, else what `available()` now says.
 */
export async function installOnDevice(lang: string, ctor = speechRecognitionClass()): Promise<OnDeviceOffer> {
  if (!hasOnDeviceMode(ctor) || typeof ctor.install !== "function") return "none";
  try {
    await ctor.install({ langs: [lang], processLocally: true });
  } catch {
    // The answer of available() below says what is there.
  }
  return probeOnDevice(lang, ctor);
}

/** A recognition in progress, shaped like a recording for the Dictate button. */
export interface DeviceRecognition {
  /** 0..1: high while results keep arriving (the user is speaking), 0 after a pause; voice mode's silence reads it. */
  level(): number;
  elapsedMs(): number;
  /** Stop listening and hand over the final text ("" when nothing was heard). @throws AppError "bad_request:recording". */
  stop(): Promise<string>;
  /** Stop and drop what was heard. */
  cancel(): void;
}

/** How long after the last result the speaker counts as silent, in ms (results arrive several times a second while speaking). */
const SPEAKING_MS = 700;
/** How long `stop()` waits for the browser's last results and `end`, in ms. */
const STOP_TIMEOUT_MS = 5000;

/** The recorder's failure for a recognition error code (W3C SpeechRecognitionErrorCode); null: not a failure. */
export function failureFor(code: string): "denied" | "no_device" | "on_device_unavailable" | "failed" | null {
  if (code === "no-speech" || code === "aborted") return null;
  if (code === "not-allowed") return "denied";
  if (code === "audio-capture") return "no_device";
  if (code === "service-not-allowed" || code === "language-not-supported") return "on_device_unavailable";
  return "failed";
}

/**
 * Start recognising `lang` on the device, continuously with interim results. `onEnd` is called when the browser
 * ends the recognition by itself (after a long silence, or an error), for the caller to call `stop()`.
 * @throws AppError "bad_request:recording" "on_device_unavailable" unless available() answers "available" and the
 *   recognition holds processLocally true (no recognition is started then).
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
        // A browser that never ends the recognition: what was heard so far, and the microphone released.
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
