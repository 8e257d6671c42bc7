"use client";

import { useState } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { draftKeyRotation, rotateVaultKey } from "@/lib/browser/vault/key-rotation";
import type { VaultJson } from "@/lib/browser/vault/store";
import type { RotationDraft } from "@/lib/browser/vault/rotation";
import { NewPassphraseField } from "./passphrase-field";
import { RecoveryCodeBox } from "./recovery-code";
import { useAction } from "./use-action";

type Step = "intro" | "code" | "running" | "done";

/** "Rotate vault key": every saved chat re-encrypted in this browser; the new recovery code is saved before anything is sent. */
export function RotateKey({ info, busy: otherBusy, request = 0 }: { info: VaultJson; busy: boolean; request?: number }) {
  const [step, setStep] = useState<Step | null>(null);
  // Each new rotation request opens the dialog (state adjusted while rendering, to follow a prop).
  const [handled, setHandled] = useState(request);
  if (request !== handled) {
    setHandled(request);
    setStep("intro");
  }
  const [passphrase, setPassphrase] = useState("");
  const [draft, setDraft] = useState<RotationDraft | null>(null);
  const [codeSaved, setCodeSaved] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const { busy, error, setError, act } = useAction();
  const hasPassphrase = info.methods.some((m) => m.kind === "passphrase");
  const hasPasskey = info.methods.some((m) => m.kind === "passkey");

  const close = () => {
    if (step === "running") return;
    setStep(null);
    setDraft(null);
    setPassphrase("");
    setCodeSaved(false);
    setError(null);
  };

  return (
    <>
      <button type="button" className={buttonStyles.secondary} disabled={otherBusy} onClick={() => setStep("intro")}>
        Rotate vault key
      </button>
      <Dialog
        open={step !== null}
        onClose={close}
        title={step === "done" ? "Your vault key was rotated" : "Rotate your vault key?"}
        actions={
          step === "intro" ? (
            <>
              <button type="button" className={buttonStyles.secondary} onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className={buttonStyles.primary}
                disabled={busy || (hasPassphrase && !passphrase)}
                onClick={() =>
                  void act(async () => {
                    setDraft(await draftKeyRotation(hasPassphrase ? passphrase : null));
                    setStep("code");
                  })
                }
              >
                {busy ? "Preparing…" : "Continue"}
              </button>
            </>
          ) : step === "code" ? (
            <>
              <button type="button" className={buttonStyles.secondary} onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className={buttonStyles.primary}
                disabled={!codeSaved || busy}
                onClick={() =>
                  void act(async () => {
                    setStep("running");
                    try {
                      await rotateVaultKey(draft!, (done, total) => setProgress({ done, total }));
                      setStep("done");
                    } catch (e) {
                      setStep("code");
                      throw e;
                    }
                  })
                }
              >
                Rotate now
              </button>
            </>
          ) : step === "done" ? (
            <button type="button" className={buttonStyles.primary} onClick={close}>
              Done
            </button>
          ) : null
        }
      >
        {step === "intro" && (
          <div data-testid="rotate-intro">
            <p>
              A new key is made in this browser and every saved chat is encrypted again with it. Then your current passphrase,
              recovery code{hasPasskey ? ", passkeys" : ""} and remembered devices stop working: a copy of the old key, or of
              anything that opened it, opens nothing any more.
            </p>
            <p className="mt-2">
              You get a new recovery code.{hasPasskey ? " Passkeys are removed: add them again afterwards (one tap each)." : ""} Keep
              this tab open while it runs; if it is interrupted, it finishes the next time you unlock.
            </p>
            {hasPassphrase && (
              <div className="mt-3">
                <NewPassphraseField id="rotate-passphrase" label="Passphrase for the new key" value={passphrase} onChange={setPassphrase} />
                <p className="mt-1 text-xs text-ink-500">Your current passphrase is fine, or choose a new one.</p>
              </div>
            )}
          </div>
        )}
        {step === "code" && draft && (
          <>
            <p>Save your new recovery code now. Nothing changes until you press “Rotate now”.</p>
            <RecoveryCodeBox code={draft.code} saved={codeSaved} onSavedChange={setCodeSaved} />
          </>
        )}
        {step === "running" && (
          <p role="status" data-testid="rotate-progress">
            Re-encrypting your saved chats{progress ? `: ${progress.done.toLocaleString("en-US")} of ${progress.total.toLocaleString("en-US")}` : "…"}
          </p>
        )}
        {step === "done" && (
          <p data-testid="rotate-done">
            Every saved chat is now encrypted with the new key. Your old passphrase and recovery code no longer open anything
            {hasPasskey ? "; add your passkeys again below" : ""}.
          </p>
        )}
        {error && (
          <p role="alert" className="mt-2 text-red-700">
            {error}
          </p>
        )}
      </Dialog>
    </>
  );
}
