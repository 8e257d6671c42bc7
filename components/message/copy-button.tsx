"use client";

import { useState } from "react";
import { toast } from "@/components/ui/toaster";

/**
 * Copies `text` to the clipboard; the icon turns into a check for a moment and a toast confirms
 * (sonner's <Toaster/> lives in the root layout). A refused clipboard says so instead.
 */
export function CopyButton({ text, label, className = "" }: { text: () => string; label: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text());
      setCopied(true);
      toast.success("Copied to the clipboard");
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast.error("The browser did not allow copying.");
    }
  };
  return (
    <button type="button" onClick={copy} aria-label={label} title={label} className={className}>
      {copied ? (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 12l5 5L20 7" />
        </svg>
      ) : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <rect x="9" y="9" width="11" height="11" rx="2" />
          <path d="M5 15V5a2 2 0 0 1 2-2h10" />
        </svg>
      )}
    </button>
  );
}
