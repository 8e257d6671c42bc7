"use client";

/**
 * After signing up or in within the same tab, the conversation had as a visitor is offered back
 * "Keep it" puts it on screen and, with Save history on, saves it as a chat.
 */
export function KeptOfferNotice({ messages, saving, onKeep, onDiscard }: { messages: number; saving: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <div role="status" data-testid="kept-offer" className="mx-auto mb-2 w-full max-w-3xl px-4 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-brand-200 bg-brand-50 px-4 py-2.5 text-sm text-ink-800">
        <p>
          The conversation you had before signing in ({messages === 1 ? "1 message" : `${messages} messages`}) is still in this tab.{" "}
          {saving ? "Keep it as a saved chat?" : "Keep it? Turn on Save history to save it as a chat."}
        </p>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={onKeep}
            className="inline-flex h-8 items-center rounded-lg bg-brand-600 px-3 text-sm font-semibold text-white hover:bg-brand-700"
          >
            Keep it
          </button>
          <button
            type="button"
            onClick={onDiscard}
            className="inline-flex h-8 items-center rounded-lg border border-ink-200 bg-white px-3 text-sm font-semibold text-ink-700 hover:bg-ink-100"
          >
            Discard
          </button>
        </div>
      </div>
    </div>
  );
}
