"use client";

import { useState } from "react";
import { signOutAndReload } from "@/lib/browser/account/sign-out";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { apiFetch, serverMessage } from "@/lib/browser/api/client";
import { forgetLocalTraces, localTracesOwner } from "@/lib/browser/vault/devices";

const CONFIRM_WORD = "DELETE";

/** Settings → Delete account (docs/product.md §2), confirmed by typing DELETE. */
export function DeleteAccountSection() {
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState("");
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const deleteAccount = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      const owner = await localTracesOwner();
      await apiFetch("deleteUser", { body: {} });
      // The account is gone: so are its drafts and seen versions in this browser.
      await forgetLocalTraces(owner);
    } catch (error) {
      setDeleteError(serverMessage(error) ?? "Your account could not be deleted. Please try again.");
      setDeleting(false);
      return;
    }
    try {
      await signOutAndReload();
    } catch (error) {
      setDeleteError(error instanceof Error ? error.message : "Your account could not be deleted. Please try again.");
      setDeleting(false);
    }
  };

  return (
    <>
      <section aria-labelledby="danger-h" className="mt-8 rounded-2xl border border-red-200 bg-white">
        <h2 id="danger-h" className="border-b border-red-100 px-5 py-3 text-sm font-semibold text-red-800">
          Delete account
        </h2>
        <div className="flex flex-col gap-4 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-ink-700">
            Deletes your saved chats and the wrapped copies of your key. This cannot be undone.
          </p>
          <button type="button" onClick={() => setConfirming(true)} className={`${buttonStyles.danger} shrink-0`}>
            Delete Account
          </button>
        </div>
      </section>

      <Dialog
        open={confirming}
        onClose={() => {
          if (deleting) return;
          setConfirming(false);
          setTyped("");
          setDeleteError(null);
        }}
        title="Delete your account?"
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} disabled={deleting} onClick={() => { setConfirming(false); setTyped(""); }}>
              Cancel
            </button>
            <button type="button" className={buttonStyles.danger} disabled={typed !== CONFIRM_WORD || deleting} onClick={() => void deleteAccount()}>
              {deleting ? "Deleting…" : "Delete Account"}
            </button>
          </>
        }
      >
        <p>
          Your saved chats will be deleted, together with every stored copy of the key that encrypts them, so they can never be read again.
        </p>
        <label htmlFor="confirm-delete" className="mt-4 block font-medium text-ink-900">
          Type {CONFIRM_WORD} to confirm
        </label>
        <input
          id="confirm-delete"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          className="mt-1.5 w-full rounded-lg border border-ink-300 px-3 py-2 text-base focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
        />
        {deleteError && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            {deleteError}
          </p>
        )}
      </Dialog>
    </>
  );
}
