"use client";

import { useDismiss } from "@/components/ui/use-dismiss";
import { useId, useRef, useState } from "react";
import { chooseDictation, installAndChooseDevice, type OnDeviceState } from "@/lib/browser/voice/on-device-choice";
import type { DictationRoute } from "@/lib/browser/voice/where";
import type { ModelChoice } from "@/lib/shared/llm/models";
import { useDictationRoutes } from "./use-dictation-route";

/** Where the chosen model's recordings go, beside the privacy badge; a click offers the on-device choice. */
export function DictationLabel({ model }: { model: ModelChoice | undefined }) {
  const { route, own, onDevice } = useDictationRoutes(model);
  const [open, setOpen] = useState(false);
  const noteId = useId();
  const root = useRef<HTMLSpanElement>(null);

  useDismiss(open, root, setOpen);

  const offered = model !== undefined && onDevice.offer !== "none";
  if (route.kind === "off" && !offered) return null;
  return (
    <span ref={root} className="relative hidden @sm:inline-flex">
      <button
        type="button"
        data-testid="dictation-privacy-label"
        aria-label={route.kind === "off" ? "Voice: choose where" : route.short}
        aria-expanded={open}
        aria-controls={open ? noteId : undefined}
        title={route.sentence}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex items-center gap-1 whitespace-nowrap rounded-full bg-ink-50 px-2 py-1 text-xs font-medium text-ink-700 ring-1 ring-ink-200 hover:bg-ink-100"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <rect x="9" y="3" width="6" height="11" rx="3" />
          <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
        </svg>
        <span className="hidden @2xl:inline">{route.kind === "off" ? "Voice" : route.short}</span>
      </button>
      {open && (
        <span
          id={noteId}
          className="absolute left-0 top-full z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] -translate-x-1/2 @md:w-72 rounded-lg border border-ink-200 bg-white p-2.5 text-xs font-normal text-ink-700 shadow-lg @md:translate-x-0"
        >
          <span role="note" data-testid="dictation-privacy-note" className="block">
            {route.sentence}
          </span>
          {offered && <DictationChoice own={own} onDevice={onDevice} />}
        </span>
      )}
    </span>
  );
}

function ownChoiceLabel(own: DictationRoute): string {
  if (own.kind === "enclave") return "In the verified enclave";
  if (own.kind === "provider") return `${own.provider}, through Hush's server`;
  return "Not offered for this model";
}

// Choosing the device downloads its speech model where needed: install() asks for the user's click.
function DictationChoice({ own, onDevice }: { own: DictationRoute; onDevice: OnDeviceState }) {
  const groupId = useId();
  const device = onDevice.choice === "device" && onDevice.offer === "ready";
  return (
    <span role="radiogroup" aria-labelledby={groupId} data-testid="dictation-choice" className="mt-2 block border-t border-ink-100 pt-2">
      <span id={groupId} className="block font-medium text-ink-900">
        Where your voice is turned into text
      </span>
      <label className="mt-1 flex items-start gap-2">
        <input type="radio" name={groupId} className="mt-0.5" checked={!device} disabled={own.kind === "off"} onChange={() => chooseDictation("model")} />
        <span>{ownChoiceLabel(own)}</span>
      </label>
      <label className="mt-1 flex items-start gap-2">
        <input
          type="radio"
          name={groupId}
          className="mt-0.5"
          checked={device}
          disabled={onDevice.installing}
          onChange={() => (onDevice.offer === "ready" ? chooseDictation("device") : void installAndChooseDevice())}
        />
        <span>
          On this device <span className="text-ink-500">(most private: nothing is sent to Hush, no dictation time counted)</span>
          {onDevice.offer === "install" && (
            <span className="block text-ink-500">{onDevice.installing ? "Downloading the browser's speech model…" : "Your browser downloads its speech model first."}</span>
          )}
        </span>
      </label>
      {onDevice.installFailed && (
        <span role="alert" className="mt-1 block text-red-700">
          The browser could not install its speech model. Your voice still goes the model&apos;s way.
        </span>
      )}
    </span>
  );
}
