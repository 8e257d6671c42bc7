import { describe, expect, it } from "vitest";
import { afterReading, afterTurn, sent, silenceDetector, VOICE_OFF, type VoiceModeState } from "@/lib/browser/voice/voice-mode";
import { dictationRoute } from "@/lib/browser/voice/where";
import type { ModelChoice } from "@/lib/shared/llm/models";

/** Voice mode (docs/issues.md #52): the hands-free loop's steps, the silence that sends a spoken message, and where recordings go. */

describe("the voice mode loop", () => {
  it("waits for the turn to run and end, then reads the new answer, then listens again", () => {
    let state: VoiceModeState = sent("a1");
    // The send has not reached the turn runner yet: nothing changes, the old answer is not read.
    state = afterTurn(state, false, "a1");
    expect(state).toEqual({ phase: "answering", before: "a1", started: false });
    state = afterTurn(state, true, "a1");
    expect(state).toEqual({ phase: "answering", before: "a1", started: true });
    // Streaming: the same object back, so the hook's render-time check does not loop.
    expect(afterTurn(state, true, "a1")).toBe(state);
    state = afterTurn(state, false, "a2");
    expect(state).toEqual({ phase: "speaking", id: "a2", started: false });
    // The voices are still loading: nothing read yet, nothing changes.
    expect(afterReading(state, null)).toBe(state);
    state = afterReading(state, "a2");
    expect(state).toEqual({ phase: "speaking", id: "a2", started: true });
    expect(afterReading(state, "a2")).toBe(state);
    expect(afterReading(state, null)).toEqual({ phase: "listening" });
  });

  it("a turn that ends without a new answer (an error) leaves voice mode", () => {
    const running = afterTurn(sent(null), true, null);
    expect(afterTurn(running, false, null)).toEqual(VOICE_OFF);
    const withOld = afterTurn(sent("a1"), true, "a1");
    expect(afterTurn(withOld, false, "a1")).toEqual(VOICE_OFF);
  });

  it("another answer being read (the user's own Read aloud) does not end voice mode's reading", () => {
    const speaking: VoiceModeState = { phase: "speaking", id: "a2", started: false };
    expect(afterReading(speaking, "a1")).toBe(speaking);
  });

  it("leaves the other phases alone", () => {
    for (const state of [VOICE_OFF, { phase: "listening" } as const]) {
      expect(afterTurn(state, true, "x")).toBe(state);
      expect(afterReading(state, null)).toBe(state);
    }
  });
});

describe("silenceDetector", () => {
  const options = { threshold: 0.1, speechMs: 300, silenceMs: 1000 };
  /** Feed one level every 50 ms from `start`; the time at which the detector first said stop, or null. */
  const feed = (detect: (level: number, now: number) => boolean, levels: number[], start = 0): number | null => {
    for (let i = 0; i < levels.length; i++) if (detect(levels[i]!, start + i * 50)) return start + i * 50;
    return null;
  };
  const repeat = (level: number, frames: number) => Array<number>(frames).fill(level);

  it("never stops before anything was said, however long the quiet", () => {
    expect(feed(silenceDetector(options), repeat(0.02, 400))).toBeNull();
  });

  it("stops once speech has been followed by the whole silence", () => {
    // 0.5 s of speech from 0 ms, then quiet from 500 ms: stop at 1500 ms.
    expect(feed(silenceDetector(options), [...repeat(0.4, 10), ...repeat(0.02, 40)])).toBe(1500);
  });

  it("a short pause between words does not stop it; the silence counts from the last word", () => {
    const levels = [...repeat(0.4, 10), ...repeat(0.02, 10), ...repeat(0.4, 4), ...repeat(0.02, 40)];
    // Speech to 500 ms, a 0.5 s pause, words 1000–1150 ms, quiet from 1200 ms: stop at 2200 ms.
    expect(feed(silenceDetector(options), levels)).toBe(2200);
  });

  it("a click shorter than speechMs is not speech", () => {
    expect(feed(silenceDetector(options), [...repeat(0.9, 3), ...repeat(0.02, 100)])).toBeNull();
  });
});

describe("dictationRoute (the Dictate tooltip and the label beside the model picker)", () => {
  const model = (privacy: "standard" | "confidential") =>
    ({ code: "llama3-8b-8192", title: "Basic", description: "", plan: "Free", privacy, vision: false }) as ModelChoice;

  it("a standard model's recordings go through Hush's server to the named provider", () => {
    const route = dictationRoute(model("standard"), "Groq", "enclave.example:443");
    expect(route).toMatchObject({ kind: "provider", provider: "Groq", short: "Voice: Groq" });
    expect(route.sentence).toBe("Dictate: your recording goes through Hush's server to Groq for transcription, and is not kept.");
  });

  it("a confidential model's are encrypted to the enclave, whatever provider standard models have", () => {
    const route = dictationRoute(model("confidential"), "Groq", "enclave.example:443");
    expect(route).toMatchObject({ kind: "enclave", short: "Voice: in the enclave" });
    expect(route.sentence).toContain("encrypted in this browser to the verified enclave (enclave.example:443)");
  });

  it("no provider, no enclave, or no model: no dictation, and no label claims a path", () => {
    expect(dictationRoute(model("standard"), null, "enclave.example:443")).toEqual({ kind: "off", sentence: "Dictation is not set up on this server for this model." });
    expect(dictationRoute(model("confidential"), null, null).kind).toBe("off");
    expect(dictationRoute(undefined, "Groq", null)).toEqual({ kind: "off", sentence: "Choose a model to dictate." });
  });
});
