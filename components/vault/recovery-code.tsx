"use client";

import { useState } from "react";
import { buttonStyles } from "@/components/ui/dialog";

/** A recovery code shown once, in groups of four, with a copy button and the "I saved it" checkbox. */
export function RecoveryCodeBox({ code, saved, onSavedChange }: { code: string; saved: boolean; onSavedChange: (v: boolean) => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="mt-3">
      <p className="font-medium text-ink-900">Your recovery code</p>
      <p className="mt-1">Write it down or keep it in a password manager. It is shown only now.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2 rounded-xl border border-ink-200 bg-ink-50 p-3">
        <code data-testid="recovery-code" className="grid grid-cols-4 gap-x-3 gap-y-1 font-mono text-base tracking-wider text-ink-950">
          {code.split("-").map((g, i) => (
            <span key={i}>{g}</span>
          ))}
        </code>
        <button
          type="button"
          className={`${buttonStyles.secondary} ml-auto`}
          onClick={() => {
            void navigator.clipboard?.writeText(code).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <label className="mt-3 flex items-start gap-2 text-ink-900">
        <input type="checkbox" className="mt-1 h-4 w-4" checked={saved} onChange={(e) => onSavedChange(e.target.checked)} />
        <span>I have saved my recovery code somewhere safe.</span>
      </label>
    </div>
  );
}
