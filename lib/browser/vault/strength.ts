// Passphrase strength, browser only: the server never sees a passphrase.
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

export const MIN_PASSPHRASE_CHARS = 10;
const MIN_SCORE = 3;
/** Least estimated guesses accepted, as log10: 10^10 (stricter than score 4's threshold). */
export const MIN_GUESSES_LOG10 = 10;
export const SUGGESTED_WORDS = 6;

export const STRENGTH_LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];
const VERY_STRONG_LOG10 = 14;

export interface PassphraseRating {
  score: 0 | 1 | 2 | 3 | 4;
  guessesLog10: number;
  level: 0 | 1 | 2 | 3 | 4;
  label: StrengthLabel;
  acceptable: boolean;
  reason: string;
}

const SERVICE_WORDS = ["hush", "hushchat", "vault", "chat", "history", "passphrase", "password", "secret"];

let factory: Promise<ZxcvbnFactory> | undefined;

type Core = typeof import("@zxcvbn-ts/core");
type Common = typeof import("@zxcvbn-ts/language-common");
type English = typeof import("@zxcvbn-ts/language-en");

// Levenshtein matching stays off: it made a check take seconds.
export function makeRater(core: Core, common: Common, en: English): ZxcvbnFactory {
  return new core.ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary },
  });
}

function zxcvbn(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]).then(
    ([core, common, en]) => makeRater(core, common, en),
  );
  factory.catch(() => {
    // A failed chunk load (offline) is tried again at the next rating.
    factory = undefined;
  });
  return factory;
}


/** @throws Error when zxcvbn cannot load */
export async function ratePassphrase(passphrase: string, userInputs: readonly string[] = []): Promise<PassphraseRating> {
  return rateWith(await zxcvbn(), passphrase, userInputs);
}

export function rateWith(rater: ZxcvbnFactory, passphrase: string, userInputs: readonly string[] = []): PassphraseRating {
  const text = passphrase.normalize("NFKC");
  const result = rater.check(text, [...SERVICE_WORDS, ...userInputs]);
  const score = result.score;
  const longEnough = [...text].length >= MIN_PASSPHRASE_CHARS;
  const acceptable = longEnough && score >= MIN_SCORE && result.guessesLog10 >= MIN_GUESSES_LOG10;
  const level = acceptable ? (result.guessesLog10 >= VERY_STRONG_LOG10 ? 4 : 3) : !longEnough || score === 0 ? 0 : score === 3 ? 2 : 1;
  return {
    score,
    guessesLog10: result.guessesLog10,
    level,
    label: STRENGTH_LABELS[level],
    acceptable,
    reason: reasonFor(text, longEnough, acceptable, result),
  };
}

type ZxcvbnResult = ReturnType<ZxcvbnFactory["check"]>;

function reasonFor(text: string, longEnough: boolean, acceptable: boolean, result: ZxcvbnResult): string {
  if (!text) return `Use ${SUGGESTED_WORDS} or more random words, or let Hush suggest some.`;
  if (!longEnough) return `Too short: use at least ${MIN_PASSPHRASE_CHARS} characters, best several random words.`;
  const crack = result.crackTimes.offlineSlowHashingXPerSecond;
  const time = crack.seconds < 1 ? "under a second" : crack.base === null ? crack.display : `about ${crack.display}`;
  if (acceptable) return `Good: guessing it would take an attacker with the stored copy ${time}.`;
  const why = result.feedback.warning ?? "It is made of common words or patterns.";
  const tip = result.feedback.suggestions[0] ?? "Add more words that are less common.";
  return `Too easy to guess (${time} for an attacker with the stored copy). ${withStop(why)} ${withStop(tip)}`;
}

const withStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/** Rejection sampling, so no modulo bias. @throws RangeError unless 1 ≤ n ≤ 2^32 */
export function randomBelow(n: number, random: (buf: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer> = (b) => globalThis.crypto.getRandomValues(b)): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError("n must be an integer from 1 to 2^32");
  const limit = 2 ** 32 - (2 ** 32 % n);
  const buf = new Uint32Array(1);
  for (;;) {
    const value = random(buf)[0]!;
    if (value < limit) return value % n;
  }
}

/** @throws RangeError for fewer than 5 words */
export async function generatePassphrase(words = SUGGESTED_WORDS): Promise<string> {
  if (words < 5) throw new RangeError("A suggested passphrase has at least 5 words.");
  const { wordlist } = await import("@scure/bip39/wordlists/english.js");
  return Array.from({ length: words }, () => wordlist[randomBelow(wordlist.length)]!).join(" ");
}
