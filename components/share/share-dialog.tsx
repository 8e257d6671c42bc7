"use client";

import { useState } from "react";
import { serverMessage } from "@/lib/browser/api/client";
import { createShareLink } from "@/lib/browser/share/client";
import type { SharedSnapshot } from "@/lib/browser/share/crypto";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";

type State = { step: "confirm" } | { step: "creating" } | { step: "done"; link: string } | { step: "failed"; message: string };

/** "Share": a snapshot sealed here under a fresh key; the link's key part (after #) never reaches Hush's server. */
export function ShareDialog({ open, onClose, snapshot }: { open: boolean; onClose: () => void; snapshot: () => SharedSnapshot }) {
  const [state, setState] = useState<State>({ step: "confirm" });
  const close = () => {
    onClose();
    setState({ step: "confirm" });
  };

  const create = async () => {
    setState({ step: "creating" });
    try {
      const { link } = await createShareLink(snapshot());
      setState({ step: "done", link });
    } catch (error) {
      setState({ step: "failed", message: serverMessage(error) ?? "Could not create the link. Check your connection and try again." });
    }
  };

  const copy = async (link: string) => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success("Link copied");
    } catch {
      toast.error("The browser did not allow copying: select the link and copy it.");
    }
  };

  const done = state.step === "done";
  return (
    <Dialog
      open={open}
      onClose={close}
      title={done ? "Share link ready" : "Share this chat"}
      actions={
        done ? (
          <>
            <button type="button" className={buttonStyles.secondary} onClick={close}>
              Close
            </button>
            <button type="button" className={buttonStyles.primary} onClick={() => void copy(state.link)}>
              Copy link
            </button>
          </>
        ) : (
          <>
            <button type="button" className={buttonStyles.secondary} onClick={close}>
              Cancel
            </button>
            <button type="button" className={buttonStyles.primary} disabled={state.step === "creating"} onClick={() => void create()}>
              {state.step === "creating" ? "Creating…" : "Create link"}
            </button>
          </>
        )
      }
    >
      {done ? (
        <div className="space-y-3">
          <p>Anyone with this link can read the chat as it is now. Later messages are not added.</p>
          <label htmlFor="share-link" className="sr-only">
            Share link
          </label>
          <input
            id="share-link"
            data-testid="share-link"
            readOnly
            value={state.link}
            onFocus={(e) => e.currentTarget.select()}
            className="w-full rounded-lg border border-ink-200 bg-ink-50 px-3 py-2 font-mono text-xs text-ink-900"
          />
          <p className="text-xs text-ink-600">You can revoke it at any time in Settings, under Share links.</p>
        </div>
      ) : (
        <div className="space-y-2">
          <p>This makes a read-only copy of the chat as it is now, without its documents&apos; text. Anyone with the link can read it.</p>
          <p>
            The copy is encrypted in this browser. The key is the part of the link after #, which browsers never send to Hush&apos;s server, so
            the server stores only ciphertext.
          </p>
          {state.step === "failed" && (
            <p role="alert" className="text-red-700">
              {state.message}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
