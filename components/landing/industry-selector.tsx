"use client";

import { useId, useState } from "react";
import type { Industry } from "@/content/landing";

/** The industry selector (docs/product.md §2, §4): one or none selected, each button a disclosure of the panel. */
export function IndustrySelector({ industries, emptyHint }: { industries: readonly Industry[]; emptyHint: string }) {
  const [selected, setSelected] = useState<number | null>(industries.length > 0 ? 0 : null);
  const panelId = useId();
  const current = selected === null ? undefined : industries[selected];

  return (
    <div>
      <ul className="flex flex-wrap gap-2.5" aria-label="Industries">
        {industries.map((industry, i) => {
          const isSelected = i === selected;
          return (
            <li key={industry.name}>
              <button
                type="button"
                aria-expanded={isSelected}
                aria-controls={panelId}
                onClick={() => setSelected(isSelected ? null : i)}
                className={`rounded-full border px-4 py-2 text-sm font-medium transition-colors ${
                  isSelected
                    ? "border-ink-950 bg-ink-950 text-white"
                    : "border-ink-200 bg-white text-ink-700 hover:border-ink-300 hover:bg-ink-50 hover:text-ink-950"
                }`}
              >
                {industry.name}
              </button>
            </li>
          );
        })}
      </ul>
      <div
        id={panelId}
        aria-live="polite"
        className="mt-8 min-h-48 rounded-2xl border border-ink-200 bg-ink-50 p-6 sm:p-8"
      >
        {current ? (
          <>
            <h3 className="text-xl font-semibold tracking-tight text-ink-950">{current.name}</h3>
            <p className="mt-3 max-w-3xl text-base leading-7 text-ink-700">{current.description}</p>
          </>
        ) : (
          <p className="text-base text-ink-600">{emptyHint}</p>
        )}
      </div>
    </div>
  );
}
