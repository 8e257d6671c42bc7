"use client";

import Link from "next/link";
import type { ChatError } from "./use-conversation";

/** A failed send (docs/product.md §8), with Retry for the "any other failure" case. */
export function ChatErrorNotice({ error, onRetry }: { error: ChatError; onRetry: () => void }) {
  return (
    <div role="alert" data-testid="chat-error" className="mx-auto mb-2 w-full max-w-3xl px-4 sm:px-6">
      <div className="rounded-xl border border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-800">
        <p>
          {error.text}
          {error.link && (
            <>
              {" "}
              <Link href={error.link.href} className="font-semibold underline">
                {error.link.label}
              </Link>
            </>
          )}
        </p>
        {error.retry && (
          <div className="mt-1.5 flex flex-wrap items-center justify-between gap-2">
            <p data-testid="chat-error-detail" className="text-red-900">
              {error.detail}
            </p>
            <button
              type="button"
              onClick={onRetry}
              className="inline-flex h-8 items-center gap-1.5 rounded-lg border border-red-300 bg-white px-3 text-sm font-semibold text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-700"
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d="M4 12a8 8 0 0 1 14-5.3M20 4v5h-5M20 12a8 8 0 0 1-14 5.3M4 20v-5h5" />
              </svg>
              Retry
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
