"use client";

import { useEffect, useState } from "react";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { AppError } from "@/lib/shared/errors";
import { RememberDeviceBox } from "@/components/vault/remember-device";
import { draftSetup, passkeysAvailable, preloadVaultMethods, type SetupDraft } from "@/lib/browser/vault/methods";
import { commitSetup } from "@/lib/browser/vault/unlock";
import { ratePassphraseOffThread } from "@/lib/browser/vault/strength-client";
import { NewPassphraseField } from "./passphrase-field";
import { RecoveryCodeBox } from "./recovery-code";

type Step = "choose" | "passphrase" | "working" | "recovery";

const inputClass =
  "mt-1 w-full rounded-lg border border-ink-300 px-3 py-2 text-base text-ink-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

/** The confirmation to turn on Save history (docs/product.md §4), also the vault's setup; nothing is stored until "Turn on". */
export function VaultSetupDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  useEffect(preloadVaultMethods, []);
  const [step, setStep] = useState<Step>("choose");
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [draft, setDraft] = useState<SetupDraft | null>(null);
  const [saved, setSaved] = useState(false);
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (step === "working") return;
    setStep("choose");
    setPassphrase("");
    setAgain("");
    setDraft(null);
    setSaved(false);
    setRemember(false);
    setError(null);
    onClose();
  };

  const run = async (work: () => Promise<void>, back: Step) => {
    setError(null);
    setStep("working");
    try {
      await work();
    } catch (e) {
      setError(e instanceof AppError ? e.message : "Something went wrong. Please try again.");
      setStep(back);
    }
  };

  const choosePasskey = () =>
    run(async () => {
      setDraft(await draftSetup({ kind: "passkey" }));
      setStep("recovery");
    }, "choose");

  // A guessable passphrase is refused before any key is wrapped (draftSetup checks again).
  const choosePassphrase = async () => {
    setError(null);
    let rating;
    try {
      rating = await ratePassphraseOffThread(passphrase);
    } catch {
      return setError("The strength check could not load. Check your connection and try again.");
    }
    // The reason itself is under the meter; the alert says what to do.
    if (!rating.acceptable) return setError("This passphrase is too easy to guess. Add more uncommon words, or use \u201cSuggest one\u201d.");
    if (passphrase !== again) return setError("The two passphrases are not the same.");
    void run(async () => {
      setDraft(await draftSetup({ kind: "passphrase", passphrase }));
      setStep("recovery");
    }, "passphrase");
  };

  const turnOn = () =>
    run(async () => {
      await commitSetup(draft!, remember);
      close();
      onDone();
    }, "recovery");

  const actions =
    step === "choose" ? (
      <>
        <button type="button" className={buttonStyles.secondary} onClick={close}>
          Cancel
        </button>
        <button type="button" className={passkeysAvailable() ? buttonStyles.secondary : buttonStyles.primary} onClick={() => { setError(null); setStep("passphrase"); }}>
          Use a passphrase
        </button>
        {passkeysAvailable() && (
          <button type="button" className={buttonStyles.primary} onClick={() => void choosePasskey()}>
            Use a passkey
          </button>
        )}
      </>
    ) : step === "passphrase" ? (
      <>
        <button type="button" className={buttonStyles.secondary} onClick={() => { setError(null); setStep("choose"); }}>
          Back
        </button>
        <button type="button" className={buttonStyles.primary} onClick={() => void choosePassphrase()}>
          Continue
        </button>
      </>
    ) : step === "recovery" ? (
      <>
        <button type="button" className={buttonStyles.secondary} onClick={close}>
          Cancel
        </button>
        <button type="button" className={buttonStyles.primary} disabled={!saved} onClick={() => void turnOn()}>
          Turn on
        </button>
      </>
    ) : (
      <button type="button" className={buttonStyles.primary} disabled>
        Working…
      </button>
    );

  return (
    <Dialog open={open} onClose={close} title="Save chat history?" actions={actions}>
      {step === "choose" && <ChooseIntro />}
      {step === "passphrase" && (
        <PassphraseStep
          passphrase={passphrase}
          again={again}
          onPassphrase={(value) => {
            setPassphrase(value);
            setError(null);
          }}
          onAgain={setAgain}
          onAgainTyped={(value) => {
            setAgain(value);
            setError(null);
          }}
          onSubmit={() => void choosePassphrase()}
        />
      )}
      {step === "working" && <p role="status">Setting up your key… (a passkey may ask for your fingerprint, face or PIN)</p>}
      {step === "recovery" && draft && (
        <>
          <RecoveryCodeBox code={draft.code} saved={saved} onSavedChange={setSaved} />
          <RememberDeviceBox id="vault-setup-remember" checked={remember} onChange={setRemember} />
          <p className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
            If you lose your {draft.methods[0]!.kind === "passkey" ? "passkey" : "passphrase"} and this recovery code, your
            saved history is lost for good. Hush cannot recover it.
          </p>
        </>
      )}
      {error && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      )}
    </Dialog>
  );
}

function ChooseIntro() {
  return (
    <>
      <p>
        Chats you send from now on are stored so you can come back to them. They are encrypted in this browser with a
        key only you hold: Hush stores them but cannot read them. You can delete any chat, or your whole account, at
        any time.
      </p>
      <p className="mt-2">
        Choose how you unlock them on a new device: a passkey (fingerprint, face or device PIN) or a passphrase. You
        also get a recovery code.
      </p>
    </>
  );
}

/** `onAgain` takes a suggestion. */
function PassphraseStep(props: {
  passphrase: string;
  again: string;
  onPassphrase: (value: string) => void;
  onAgain: (value: string) => void;
  onAgainTyped: (value: string) => void;
  onSubmit: () => void;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <NewPassphraseField id="vault-passphrase" label="Passphrase" value={props.passphrase} onChange={props.onPassphrase} onSuggest={props.onAgain} />
      <label htmlFor="vault-passphrase-again" className="mt-3 block font-medium text-ink-900">
        Type it again
      </label>
      <input id="vault-passphrase-again" type="password" autoComplete="new-password" value={props.again} onChange={(e) => props.onAgainTyped(e.target.value)} className={inputClass} />
      <button type="submit" hidden />
    </form>
  );
}
