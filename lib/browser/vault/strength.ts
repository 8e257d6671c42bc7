/**
 * Passphrase strength for the vault: a rating with a reason to show, the rule that refuses a
 * guessable passphrase before anything is wrapped or stored, and a generated suggestion. Runs in the browser
 * only: the server never sees a passphrase, so it cannot rate one; it holds the Argon2id cost of each
 * stored wrap to a floor instead (lib/shared/vault/argon2-params.ts).
 *
 * zxcvbn-ts and its dictionaries (about 1.6 MB of word lists) and the suggestion's word list load on first
 * use (the passphrase field's first focus or keystroke), never with a page: /chat's first-load JavaScript
 * does not carry them (docs/issues.md #12 budgets). The browser rates in a worker (lib/browser/vault/strength-client.ts,
 * ./strength.worker.ts).
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** Fewest characters a passphrase may have, whatever its rating. */
export const MIN_PASSPHRASE_CHARS = 10;
/** Least zxcvbn score accepted (0–4). */
export const MIN_SCORE = 3;
/**
 * Least estimated guesses accepted, as log10: 10^10. It is the stricter of the two rules: zxcvbn gives
 * score 4 from 10^10 guesses on, so an accepted passphrase also has score 4. At zxcvbn's rate for an offline
 * attack on a slow hash (10^4 guesses a second) 10^10 guesses take about 30 years.
 */
export const MIN_GUESSES_LOG10 = 10;
/** Words in a suggested passphrase: 6 from BIP-39's 2,048-word list, 66 bits. */
export const SUGGESTED_WORDS = 6;

/**
 * The meter's five steps. Refused passphrases are "Very weak" (zxcvbn score 0 or too short), "Weak" (1–2)
 * or "Fair" (3, under 10^10 guesses); accepted ones "Strong", or "Very strong" from 10^VERY_STRONG_LOG10 guesses.
 */
export const STRENGTH_LABELS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"] as const;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];
/** Guesses (log10) from which an accepted passphrase is "Very strong": 10^14, e.g. five random common words. */
export const VERY_STRONG_LOG10 = 14;

/** A passphrase's rating. */
export interface PassphraseRating {
  /** zxcvbn's score, 0 (too guessable) to 4 (very unguessable). */
  score: 0 | 1 | 2 | 3 | 4;
  /** log10 of the estimated guesses to find it. */
  guessesLog10: number;
  /** The meter's step, 0–4 (STRENGTH_LABELS). */
  level: 0 | 1 | 2 | 3 | 4;
  /** The meter's label: STRENGTH_LABELS[level]. */
  label: StrengthLabel;
  /** Whether setup accepts it: at least MIN_PASSPHRASE_CHARS characters, score ≥ MIN_SCORE and ≥ 10^MIN_GUESSES_LOG10 guesses. */
  acceptable: boolean;
  /** One or two sentences for the person: why it is refused and what to do, or why it is fine. */
  reason: string;
}

/**
 * Things a passphrase should not be built from: the service's own words. zxcvbn counts them as the cheapest
 * guesses (first in its user-input dictionary).
 */
const SERVICE_WORDS = ["hush", "hushchat", "vault", "chat", "history", "passphrase", "password", "secret"];

let factory: Promise<ZxcvbnFactory> | undefined;

type Core = typeof import("@zxcvbn-ts/core");
type Common = typeof import("@zxcvbn-ts/language-common");
type English = typeof import("@zxcvbn-ts/language-en");

/**
 * zxcvbn-ts with the common (passwords, diceware words, keyboard layouts) and English (words, names,
 * Wikipedia) dictionaries and English feedback. Levenshtein matching stays off: it made a check take
 * seconds (measured 0.1–7 s per passphrase with it, 0.1–0.5 s without, Node on 2 loaded cores).
 */
export function makeRater(core: Core, common: Common, en: English): ZxcvbnFactory {
  return new core.ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary },
  });
}

/** The rater on this thread, loaded once. */
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


/**
 * Rate `passphrase` on this thread (NFKC-normalised, as lib/browser/vault/crypto.ts stretches it). `userInputs`: words of
 * this person (their e-mail's parts) that should not make a passphrase, added to the service's own. The browser
 * rates in a worker instead (lib/browser/vault/strength-client.ts); this is the worker's own call, the tests' and the
 * fallback. @throws Error when zxcvbn cannot be loaded (a failed chunk download).
 */
export async function ratePassphrase(passphrase: string, userInputs: readonly string[] = []): Promise<PassphraseRating> {
  return rateWith(await zxcvbn(), passphrase, userInputs);
}

/** `ratePassphrase` with a zxcvbn already made (the worker builds its own from static imports). */
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
  // zxcvbn's time for an offline attack on a slow hash such as Argon2id (10^4 guesses a second): someone
  // holding a copy of the wrapped key, which is what the passphrase protects against.
  const crack = result.crackTimes.offlineSlowHashingXPerSecond;
  const time = crack.seconds < 1 ? "under a second" : crack.base === null ? crack.display : `about ${crack.display}`;
  if (acceptable) return `Good: guessing it would take an attacker with the stored copy ${time}.`;
  const why = result.feedback.warning ?? "It is made of common words or patterns.";
  const tip = result.feedback.suggestions[0] ?? "Add more words that are less common.";
  return `Too easy to guess (${time} for an attacker with the stored copy). ${withStop(why)} ${withStop(tip)}`;
}

const withStop = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);

/**
 * A uniformly random integer in [0, n), from `random` (crypto.getRandomValues by default): 32-bit values
 * at or above the largest multiple of n are drawn again (rejection sampling), so no value is likelier
 * than another (no modulo bias). @throws RangeError unless 1 ≤ n ≤ 2^32.
 */
export function randomBelow(n: number, random: (buf: Uint32Array<ArrayBuffer>) => Uint32Array<ArrayBuffer> = (b) => globalThis.crypto.getRandomValues(b)): number {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError("n must be an integer from 1 to 2^32");
  const limit = 2 ** 32 - (2 ** 32 % n);
  const buf = new Uint32Array(1);
  for (;;) {
    const value = random(buf)[0]!;
    if (value < limit) return value % n;
  }
}

/**
 * A new passphrase of `words` (default SUGGESTED_WORDS, at least 5) words drawn uniformly and independently
 * from BIP-39's English list (2,048 words, 11 bits each: 6 words are 66 bits), joined by spaces. The words
 * are short, common and distinct in their first four letters, so the phrase is easy to type and to write
 * down. @throws RangeError for fewer than 5 words.
 */
export async function generatePassphrase(words = SUGGESTED_WORDS): Promise<string> {
  if (words < 5) throw new RangeError("A suggested passphrase has at least 5 words.");
  const { wordlist } = await import("@scure/bip39/wordlists/english.js");
  return Array.from({ length: words }, () => wordlist[randomBelow(wordlist.length)]!).join(" ");
}
