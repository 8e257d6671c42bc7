import { describe, expect, it } from "vitest";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import {
  generatePassphrase,
  MIN_GUESSES_LOG10,
  randomBelow,
  ratePassphrase,
  STRENGTH_LABELS,
  SUGGESTED_WORDS,
} from "@/lib/browser/vault/strength";

/**
 * docs/issues.md #21, "Passphrase strength": the meter's label and reason (lib/browser/vault/strength.ts, zxcvbn-ts with
 * the common and English dictionaries), the refusal rule (score ≥ 3 and ≥ 10^10 guesses, whichever is
 * stricter) and the suggested phrase (6 BIP-39 words, drawn without modulo bias).
 */
describe("the meter's reasons", () => {
  it.each([
    ["password1234", "Weak", "This is similar to a commonly used password. Add more words that are less common."],
    ["1qaz2wsx3edc", "Weak", "This is a commonly used password."],
    ["aaaaaaaaaaaa", "Very weak", 'Repeated characters like "aaa" are easy to guess.'],
    ["hushhushhush", "Weak", 'Repeated character patterns like "abcabcabc" are easy to guess.'],
    ["abcdefghijkl", "Very weak", 'Common character sequences like "abc" are easy to guess.'],
    ["12/25/1990ab", "Weak", "Dates are easy to guess."],
    ["december 2024", "Weak", "It is made of common words or patterns."],
  ])("%j is refused as %s, and the reason says why: %s", async (phrase, label, why) => {
    const rating = await ratePassphrase(phrase);
    expect(rating.acceptable).toBe(false);
    expect(rating.label).toBe(label);
    expect(rating.reason).toMatch(/^Too easy to guess \((under a second|about .+) for an attacker with the stored copy\)\. /);
    expect(rating.reason).toContain(why);
  });

  it("a phrase under 10 characters is refused as too short, however random", async () => {
    const rating = await ratePassphrase("x7#Qv!9z");
    expect(rating).toMatchObject({ acceptable: false, level: 0, label: "Very weak" });
    expect(rating.reason).toBe("Too short: use at least 10 characters, best several random words.");
  });

  it("the stricter rule wins: score 3 (10^8 to 10^10 guesses) is still refused, as \"Fair\"", async () => {
    const rating = await ratePassphrase("ILoveYou2024!");
    expect(rating.score).toBe(3);
    expect(rating.guessesLog10).toBeLessThan(MIN_GUESSES_LOG10);
    expect(rating).toMatchObject({ acceptable: false, level: 2, label: "Fair" });
  });

  it("the service's own words count as guessable: \"a long passphrase\" is refused", async () => {
    const plain = await ratePassphrase("orange hush vault");
    const other = await ratePassphrase("orange plum violin");
    expect(plain.guessesLog10).toBeLessThan(other.guessesLog10);
    expect(await ratePassphrase("a long passphrase")).toMatchObject({ acceptable: false, label: "Fair" });
  });

  it.each(["otters hold hands while sleeping", "kiwis regenerate their answers", "correct horse battery staple confidential"])(
    "%j is accepted, and the reason says how long guessing it would take",
    async (phrase) => {
      const rating = await ratePassphrase(phrase);
      expect(rating.score).toBe(4);
      expect(rating.guessesLog10).toBeGreaterThanOrEqual(MIN_GUESSES_LOG10);
      expect(rating.acceptable).toBe(true);
      expect(["Strong", "Very strong"]).toContain(rating.label);
      expect(rating.reason).toMatch(/^Good: guessing it would take an attacker with the stored copy (centuries|about \d+ years?)\.$/);
    },
  );

  it("labels run from Very weak to Very strong", () => {
    expect(STRENGTH_LABELS).toEqual(["Very weak", "Weak", "Fair", "Strong", "Very strong"]);
  });
});

describe("the suggested passphrase", () => {
  it("is 6 words of BIP-39's list, different each time, and the meter accepts it", async () => {
    const a = await generatePassphrase();
    const b = await generatePassphrase();
    expect(a).not.toBe(b);
    for (const phrase of [a, b]) {
      const words = phrase.split(" ");
      expect(words).toHaveLength(SUGGESTED_WORDS);
      for (const w of words) expect(wordlist).toContain(w);
      expect((await ratePassphrase(phrase)).acceptable).toBe(true);
    }
    await expect(generatePassphrase(4)).rejects.toThrow(RangeError);
  });

  it("draws word indices without modulo bias: 32-bit values at or above the largest multiple of n are drawn again", () => {
    // n = 2,048 divides 2^32: every value is used. n = 3: 2^32 mod 3 = 1, so 2^32 - 1 is the one value refused.
    const values = [2 ** 32 - 1, 2 ** 32 - 2, 7];
    const fake = (buf: Uint32Array<ArrayBuffer>) => {
      buf[0] = values.shift()!;
      return buf;
    };
    expect(randomBelow(3, fake)).toBe((2 ** 32 - 2) % 3);
    expect(values).toEqual([7]);
    expect(randomBelow(2048, (buf) => ((buf[0] = 2 ** 32 - 1), buf))).toBe(2047);
    expect(() => randomBelow(0)).toThrow(RangeError);
    // Every index of a 2,048-word list comes up, roughly evenly, with the real generator.
    const counts = new Array<number>(2048).fill(0);
    for (let i = 0; i < 2048 * 50; i++) counts[randomBelow(2048)]!++;
    expect(Math.min(...counts)).toBeGreaterThan(15);
    expect(Math.max(...counts)).toBeLessThan(100);
  });
});
