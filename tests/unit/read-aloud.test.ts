import { describe, expect, it } from "vitest";
import { onDeviceVoices, voiceFor } from "@/lib/browser/voice/read-aloud";
import { CODE_OMITTED, FORMULA_OMITTED, speakableBlocks, TABLE_OMITTED } from "@/lib/browser/voice/speakable";

/** "Read aloud" (docs/issues.md #52): what is read of an answer, and with which voices. */

/** A voice as the Web Speech API lists it (the browser's own objects have these fields). */
const voice = (name: string, lang: string, localService: boolean, isDefault = false) =>
  ({ name, lang, localService, default: isDefault, voiceURI: name }) as SpeechSynthesisVoice;

describe("speakableBlocks", () => {
  it("reads the words, leaves out the marks, and announces code blocks, tables and formulas instead of reading them", () => {
    const answer = [
      "## Steps",
      "",
      "Run **the installer** with `npm ci`, then see [the guide](https://example.com/guide).",
      "",
      "```bash",
      "npm ci && npm run build",
      "```",
      "",
      "Results:",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "",
      "- first *point*",
      "- second point https://example.com/x",
      "",
      "$$",
      "E = mc^2",
      "$$",
    ].join("\n");
    expect(speakableBlocks(answer)).toEqual([
      "Steps",
      "Run the installer with npm ci, then see the guide.",
      CODE_OMITTED,
      "Results:",
      TABLE_OMITTED,
      "first point second point a link",
      FORMULA_OMITTED,
    ]);
  });
});

describe("on-device voices", () => {
  it("only voices whose localService is true are offered; a network voice is never chosen, even as the default", () => {
    const offered = [voice("Cloud English", "en-US", false, true), voice("Espeak English", "en-GB", true), voice("Espeak French", "fr-FR", true)];
    expect(onDeviceVoices(offered).map((v) => v.name)).toEqual(["Espeak English", "Espeak French"]);
    expect(voiceFor(onDeviceVoices(offered), "fr-CA")?.name).toBe("Espeak French");
    expect(voiceFor(onDeviceVoices(offered), "en-US")?.name).toBe("Espeak English");
    expect(voiceFor(onDeviceVoices([voice("Cloud", "en-US", false, true)]), "en-US")).toBeNull();
  });
});
