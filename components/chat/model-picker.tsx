"use client";

import { useDismiss } from "@/components/ui/use-dismiss";
import { useId, useRef, useState } from "react";
import type { ModelChoice, ModelPlan } from "@/lib/shared/llm/models";
import { ModelPrivacyBadge } from "@/components/confidential/model-privacy-badge";
import { DictationLabel } from "./dictation-label";

interface ModelPickerProps {
  models: ModelChoice[];
  value: string;
  /** A Pro model without Pro goes to onNeedsPro instead (docs/product.md §4). */
  onChange: (code: string) => void;
  onNeedsPro: () => void;
  plan: ModelPlan;
}

/** The model picker and its menu (docs/product.md §2, §4), with the model's privacy badge beside it. */
export function ModelPicker({ models, value, onChange, onNeedsPro, plan }: ModelPickerProps) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const current = models.find((m) => m.code === value) ?? models[0];

  useDismiss(open, root, setOpen);

  return (
    <div ref={root} className="relative flex min-w-0 items-center gap-1">
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        // Only while the menu exists: aria-controls must not point at an absent element.
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex h-10 shrink-0 items-center gap-1.5 whitespace-nowrap rounded-lg px-2 text-sm sm:h-9 font-semibold text-ink-800 hover:bg-ink-100 sm:px-3"
      >
        {/* A narrow header shows only the model's name. */}
        <span>
          <span className="sr-only @md:not-sr-only">Model: </span>
          {current?.title}
        </span>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-ink-500" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M6 9l6 6 6-6" />
        </svg>
      </button>
      <ModelPrivacyBadge model={current?.code ?? value} />
      <DictationLabel model={current} />
      {open && (
        <ul id={menuId} aria-label="Models" className="absolute left-0 top-full z-20 mt-1 w-72 max-w-[calc(100vw-6.5rem)] rounded-xl border border-ink-200 bg-white p-1.5 shadow-lg">
          {models.map((m) => {
            const locked = m.plan === "Pro" && plan !== "Pro";
            return (
              <li key={m.code}>
                <button
                  type="button"
                  aria-current={m.code === value}
                  onClick={() => {
                    setOpen(false);
                    if (locked) onNeedsPro();
                    else onChange(m.code);
                  }}
                  className="flex w-full items-start justify-between gap-3 rounded-lg px-3 py-2.5 text-left hover:bg-ink-50"
                >
                  <span>
                    <span className="block text-sm font-semibold text-ink-900">{m.title}</span>
                    <span className="block text-xs text-ink-600">{m.description}</span>
                  </span>
                  {m.code === value ? (
                    <svg aria-label="Selected" viewBox="0 0 24 24" className="mt-0.5 h-4 w-4 text-brand-600" fill="none" stroke="currentColor" strokeWidth="2.4">
                      <path d="M5 12l5 5 9-10" />
                    </svg>
                  ) : (
                    m.plan === "Pro" && <span className="rounded-full bg-brand-100 px-2 py-0.5 text-[11px] font-semibold text-brand-700">Pro</span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
