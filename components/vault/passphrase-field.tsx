"use client";

import { useEffect, useId, useState } from "react";
import { preloadStrength, ratePassphraseOffThread } from "@/lib/browser/vault/strength-client";
import { generatePassphrase, MIN_PASSPHRASE_CHARS, type PassphraseRating } from "@/lib/browser/vault/strength";

const inputClass =
  "w-full rounded-lg border border-ink-300 bg-white px-3 py-2 pr-16 text-base text-ink-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

const LEVEL_COLOUR = ["bg-red-600", "bg-red-500", "bg-amber-500", "bg-green-600", "bg-green-700"] as const;
const LEVEL_TEXT = ["text-red-700", "text-red-700", "text-amber-800", "text-green-800", "text-green-800"] as const;

/** How long typing must pause before the passphrase is rated, ms (a rating is slow on a phone). */
const RATE_AFTER_MS = 150;

/** A new passphrase with its strength meter, reason and "Suggest one"; the rater loads at first focus. */
export function NewPassphraseField({
  id,
  label,
  value,
  onChange,
  onSuggest,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSuggest?: (phrase: string) => void;
}) {
  const hintId = useId();
  const [rating, setRating] = useState<{ of: string; rating: PassphraseRating } | null>(null);
  const [failed, setFailed] = useState(false);
  const [shown, setShown] = useState(false);
  const [suggested, setSuggested] = useState<string | null>(null);

  useEffect(() => {
    if (!value) return;
    let current = true;
    const timer = setTimeout(() => {
      ratePassphraseOffThread(value).then(
        (r) => {
          if (!current) return;
          setFailed(false);
          setRating({ of: value, rating: r });
        },
        () => current && setFailed(true),
      );
    }, RATE_AFTER_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value]);

  const suggest = async () => {
    try {
      const phrase = await generatePassphrase();
      setSuggested(phrase);
      setShown(true);
      onChange(phrase);
      onSuggest?.(phrase);
    } catch {
      setFailed(true);
    }
  };

  // An older value's rating stays until the new one arrives, so the meter does not flicker while typing.
  const r = value ? rating?.rating : undefined;
  const level = r?.level;
  const reason = !value
    ? `At least ${MIN_PASSPHRASE_CHARS} characters. Several random words are easiest to remember and hardest to guess.`
    : failed
      ? "The strength check could not load. Check your connection and try again."
      : (r?.reason ?? "Checking…");

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-x-3 gap-y-1">
        <label htmlFor={id} className="block font-medium text-ink-900">
          {label}
        </label>
        <button type="button" className="text-xs font-medium text-brand-700 underline" onClick={() => void suggest()}>
          Suggest one
        </button>
      </div>
      <div className="relative mt-1">
        <input
          id={id}
          type={shown ? "text" : "password"}
          autoComplete="new-password"
          spellCheck={false}
          autoCapitalize="none"
          value={value}
          onFocus={preloadStrength}
          onChange={(e) => {
            preloadStrength();
            onChange(e.target.value);
          }}
          aria-describedby={hintId}
          className={inputClass}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 px-3 text-xs font-medium text-brand-700"
          aria-pressed={shown}
          aria-label={shown ? "Hide passphrase" : "Show passphrase"}
          onClick={() => setShown(!shown)}
        >
          {shown ? "Hide" : "Show"}
        </button>
      </div>
      <div className="mt-2 flex items-center gap-3">
        <div
          role="meter"
          aria-label="Passphrase strength"
          aria-valuemin={0}
          aria-valuemax={4}
          aria-valuenow={level ?? 0}
          aria-valuetext={r?.label ?? "Not rated"}
          data-testid="passphrase-meter"
          className="grid flex-1 grid-cols-5 gap-1"
        >
          {[0, 1, 2, 3, 4].map((i) => (
            <span key={i} className={`h-1.5 rounded-full ${level !== undefined && i <= level ? LEVEL_COLOUR[level] : "bg-ink-200"}`} />
          ))}
        </div>
        <span className={`w-24 shrink-0 text-right text-xs font-semibold ${level !== undefined ? LEVEL_TEXT[level] : "text-ink-500"}`} data-testid="passphrase-strength">
          {r?.label ?? "\u00a0"}
        </span>
      </div>
      <p id={hintId} aria-live="polite" data-testid="passphrase-reason" className="mt-1 text-xs text-ink-600">
        {reason}
      </p>
      {suggested !== null && suggested === value && (
        <p className="mt-2 rounded-lg border border-brand-100 bg-brand-50 px-3 py-2 text-xs text-ink-800" data-testid="passphrase-suggestion">
          Write these {suggested.split(" ").length} words down, or save them in your password manager: <span className="font-mono font-semibold">{suggested}</span>
        </p>
      )}
    </div>
  );
}
