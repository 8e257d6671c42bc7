import { describe, expect, it } from "vitest";
import {
  failureFor,
  hasOnDeviceMode,
  installOnDevice,
  mayStartLocally,
  offerFor,
  probeOnDevice,
  speechRecognitionClass,
  startOnDevice,
  type OnDeviceOptions,
  type RecognitionResultEvent,
  type SpeechRecognitionClass,
} from "@/lib/browser/voice/on-device";
import { chosenRoute, DEVICE_ROUTE, dictationRoute } from "@/lib/browser/voice/where";
import { isAppError } from "@/lib/shared/errors";
import type { ModelChoice } from "@/lib/shared/llm/models";

/**
 * On-device dictation (docs/issues.md #52): when the choice is offered, and that no recognition is ever started
 * without processLocally. The browser's SpeechRecognition is a small class speaking the W3C Web Speech API's surface
 * (Node has none), which records how it was asked and started; the code under test is lib/browser/voice/on-device.ts.
 */
interface Log {
  available: OnDeviceOptions[];
  installed: OnDeviceOptions[];
  started: { processLocally: boolean; lang: string; continuous: boolean }[];
}

/** A SpeechRecognition class: `status` is what available() answers; `modern` false: an older browser without the on-device surface. */
function browserSpeech(status: string, options: { modern?: boolean; install?: boolean; sticky?: boolean } = {}) {
  const log: Log = { available: [], installed: [], started: [] };
  const made: Recognition[] = [];
  let answer = status;
  class Recognition {
    lang = "";
    continuous = false;
    interimResults = false;
    onresult: ((event: RecognitionResultEvent) => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    onend: (() => void) | null = null;
    constructor() {
      made.push(this);
    }
    start() {
      log.started.push({ processLocally: (this as unknown as { processLocally: boolean }).processLocally, lang: this.lang, continuous: this.continuous });
    }
    stop() {
      setTimeout(() => this.onend?.(), 0);
    }
    abort() {
      this.onerror?.({ error: "aborted" });
      setTimeout(() => this.onend?.(), 0);
    }
    say(text: string, isFinal: boolean, index = 0) {
      const result = Object.assign([{ transcript: text }], { isFinal });
      const results: (typeof result)[] = [];
      results[index] = result;
      this.onresult?.({ resultIndex: index, results });
    }
  }
  const modern = options.modern ?? true;
  if (modern) {
    // A browser that ignores the attribute (sticky false) reads it back false whatever is set.
    let value = false;
    Object.defineProperty(Recognition.prototype, "processLocally", {
      get: () => value,
      set: (v: boolean) => {
        if (options.sticky ?? true) value = v;
      },
    });
    Object.assign(Recognition, {
      available: async (o: OnDeviceOptions) => (log.available.push(o), answer),
      ...(options.install === false ? {} : { install: async (o: OnDeviceOptions) => (log.installed.push(o), (answer = "available"), true) }),
    });
  }
  return { ctor: Recognition as unknown as SpeechRecognitionClass, log, last: () => made[made.length - 1]! };
}

describe("when on-device dictation is offered", () => {
  it("only where the browser has available() and processLocally, and available() answers available or downloadable", () => {
    expect(offerFor(browserSpeech("available").ctor, "available")).toBe("ready");
    expect(offerFor(browserSpeech("downloadable").ctor, "downloadable")).toBe("install");
    expect(offerFor(browserSpeech("downloading").ctor, "downloading")).toBe("install");
    expect(offerFor(browserSpeech("unavailable").ctor, "unavailable")).toBe("none");
    expect(offerFor(browserSpeech("available").ctor, "something new")).toBe("none");
    // Without install() a model to download cannot be had.
    expect(offerFor(browserSpeech("downloadable", { install: false }).ctor, "downloadable")).toBe("none");
    // An older Web Speech implementation (its recognition goes to the vendor's servers): never offered.
    const older = browserSpeech("available", { modern: false }).ctor;
    expect(hasOnDeviceMode(older)).toBe(false);
    expect(offerFor(older, "available")).toBe("none");
    expect(offerFor(null, "available")).toBe("none");
  });

  it("probes with processLocally true in the browser's language, and an older browser is not asked at all", async () => {
    const { ctor, log } = browserSpeech("downloadable");
    expect(await probeOnDevice("de-DE", ctor)).toBe("install");
    expect(log.available).toEqual([{ langs: ["de-DE"], processLocally: true }]);
    expect(await installOnDevice("de-DE", ctor)).toBe("ready");
    expect(log.installed).toEqual([{ langs: ["de-DE"], processLocally: true }]);
    expect(await probeOnDevice("en-US", browserSpeech("available", { modern: false }).ctor)).toBe("none");
  });

  it("finds the unprefixed class, else the webkit-prefixed one", () => {
    const a = browserSpeech("available").ctor;
    const b = browserSpeech("available").ctor;
    expect(speechRecognitionClass({ SpeechRecognition: a, webkitSpeechRecognition: b })).toBe(a);
    expect(speechRecognitionClass({ webkitSpeechRecognition: b })).toBe(b);
    expect(speechRecognitionClass({})).toBeNull();
  });
});

describe("a recognition is only ever started with processLocally true", () => {
  it("the gate: available() said available and the recognition reads processLocally back as true", () => {
    expect(mayStartLocally("available", { processLocally: true })).toBe(true);
    expect(mayStartLocally("available", { processLocally: false })).toBe(false);
    expect(mayStartLocally("downloadable", { processLocally: true })).toBe(false);
    expect(mayStartLocally("unavailable", { processLocally: true })).toBe(false);
  });

  it("starts locally, continuously, and hands over the final words once stopped", async () => {
    const { ctor, log, last } = browserSpeech("available");
    let endedByItself = 0;
    const recognition = await startOnDevice("en-GB", () => endedByItself++, ctor);
    expect(log.started).toEqual([{ processLocally: true, lang: "en-GB", continuous: true }]);
    expect(recognition.level()).toBe(0);
    last().say("hello", false);
    expect(recognition.level()).toBeGreaterThan(0.5);
    last().say("Hello there.", true);
    last().say("Second sentence.", true, 1);
    expect(await recognition.stop()).toBe("Hello there. Second sentence.");
    expect(endedByItself).toBe(0);
  });

  it("refuses, starting nothing, where the model is not installed, the browser is older, or processLocally does not hold", async () => {
    for (const speech of [browserSpeech("downloadable"), browserSpeech("unavailable"), browserSpeech("available", { modern: false }), browserSpeech("available", { sticky: false })]) {
      const error = await startOnDevice("en-US", () => undefined, speech.ctor).catch((e: unknown) => e);
      expect(isAppError(error, "bad_request:recording")).toBe(true);
      expect((error as Error).message).toMatch(/On-device recognition is not available/);
      expect(speech.log.started).toEqual([]);
    }
  });

  it("a recognition the browser ends by itself is reported; nothing heard is an empty text; errors are the recorder's sentences", async () => {
    const { ctor, last } = browserSpeech("available");
    let ended = 0;
    const recognition = await startOnDevice("en-US", () => ended++, ctor);
    last().onerror?.({ error: "no-speech" });
    last().onend?.();
    expect(ended).toBe(1);
    expect(await recognition.stop()).toBe("");

    const denied = browserSpeech("available");
    const refused = await startOnDevice("en-US", () => undefined, denied.ctor);
    denied.last().onerror?.({ error: "not-allowed" });
    await expect(refused.stop()).rejects.toThrow(/may not use the microphone/);
    expect([failureFor("audio-capture"), failureFor("language-not-supported"), failureFor("network"), failureFor("aborted")]).toEqual(["no_device", "on_device_unavailable", "failed", null]);
  });
});

describe("chosenRoute (the label and the Dictate tooltip)", () => {
  const model = (privacy: "standard" | "confidential") =>
    ({ code: "llama3-8b-8192", title: "Basic", description: "", plan: "Free", privacy, vision: false }) as ModelChoice;

  it("the device only where chosen and ready, for standard and confidential models alike, even where the model's own is off", () => {
    for (const m of [model("standard"), model("confidential")]) {
      const own = dictationRoute(m, "Groq", "enclave.example:443");
      expect(chosenRoute(m, own, "ready", "device")).toBe(DEVICE_ROUTE);
      expect(chosenRoute(m, own, "ready", "model")).toBe(own);
      expect(chosenRoute(m, own, "install", "device")).toBe(own);
      expect(chosenRoute(m, own, "none", "device")).toBe(own);
    }
    const off = dictationRoute(model("standard"), null, null);
    expect(chosenRoute(model("standard"), off, "ready", "device")).toBe(DEVICE_ROUTE);
    expect(chosenRoute(undefined, dictationRoute(undefined, "Groq", null), "ready", "device").kind).toBe("off");
    expect(DEVICE_ROUTE).toMatchObject({ short: "Voice: on this device" });
    expect(DEVICE_ROUTE.sentence).toMatch(/neither the audio nor the words are sent to Hush or anyone else, and no dictation time is counted/);
  });
});
