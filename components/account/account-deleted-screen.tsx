"use client";

import { createPortal } from "react-dom";
import { signOutAndReload } from "@/lib/browser/account/sign-out";

/** "Account Deleted" (docs/product.md §2), portalled: the header's backdrop-filter contains fixed elements. */
export function AccountDeletedScreen() {
  return createPortal(
    <div role="alertdialog" aria-modal="true" aria-labelledby="deleted-title" className="fixed inset-0 z-50 flex items-center justify-center bg-white px-6">
      <div className="max-w-sm text-center">
        <h1 id="deleted-title" className="text-2xl font-semibold text-ink-950">
          Account Deleted
        </h1>
        <p className="mt-2 text-ink-600">Your account has been deleted</p>
        <button
          type="button"
          onClick={() => void signOutAndReload()}
          autoFocus
          className="mt-6 inline-flex items-center justify-center rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
        >
          Go back
        </button>
      </div>
    </div>,
    document.body,
  );
}
