"use client";

import { useEffect, useRef, useState } from "react";
import { buttonStyles, ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { addPasskey, changePassphrase, newRecoveryCode, passkeysAvailable, preloadVaultMethods, removeMethod } from "@/lib/browser/vault/methods";
import { lockVault } from "@/lib/browser/vault/store";
import { useVault } from "@/lib/browser/vault/use-vault";
import type { StoredMethod } from "@/lib/browser/vault/seal";
import { NewPassphraseField } from "./passphrase-field";
import { RecoveryCodeBox } from "./recovery-code";
import { RememberedDevices } from "./remembered-devices";
import { RotateKey } from "./rotate-key";
import { useAction } from "./use-action";
import { UnlockPanel } from "./unlock-panel";
import { ModelPrivacyLines } from "@/components/confidential/model-privacy-lines";
import { LoadingBlock } from "@/components/ui/loading";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const KIND_NAMES = { passkey: "Passkey", passphrase: "Passphrase", recovery: "Recovery code" } as const;

/** Settings → Security: the vault's unlock methods, key rotation, remembered devices, Lock and "What Hush can see". */
export function SecuritySection() {
  const vault = useVault(true);
  useEffect(preloadVaultMethods, []);
  const info = vault.info;
  const { busy, error, act } = useAction();
  const [passphrase, setPassphrase] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const [codeSaved, setCodeSaved] = useState(false);
  const [removing, setRemoving] = useState<StoredMethod | null>(null);
  const [compromised, setCompromised] = useState(false);
  const [rotateRequest, setRotateRequest] = useState(0);

  return (
    <section aria-labelledby="security-h" data-testid="security-section" className="mt-8 rounded-2xl border border-ink-200 bg-white">
      <h2 id="security-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-700">
        Security
      </h2>
      <div className="px-5 py-4 text-sm text-ink-700">
        {vault.status === "loading" && <LoadingBlock lines={3} />}
        {vault.status === "error" && <p role="alert">Your security settings could not be loaded. Reload the page to try again.</p>}
        {vault.status === "none" && <p>Save history is off, so nothing of your chats is stored. Turn it on from the chat sidebar to set up your key.</p>}
        {vault.status === "unlocking" && <p role="status">Unlocking…</p>}
        {vault.status === "locked" && info && (
          <>
            <div className="-m-3">
              <UnlockPanel info={info} />
            </div>
            {/* Revoking a lost device needs no unlock: the list and Revoke use only the session. */}
            <RememberedDevices unlocked={false} />
          </>
        )}
        {vault.status === "unlocked" && info && (
          <>
            <p>
              Saved history is <strong>{info.history_on ? "on" : "off"}</strong> and unlocked in this browser.
              {info.last_unlock_at && <> Last unlock: {when.format(new Date(info.last_unlock_at))}.</>}
            </p>
            <MethodList methods={info.methods} busy={busy} onRemove={setRemoving} />
            <div className="mt-3 flex flex-wrap gap-2">
              {passkeysAvailable() && (
                <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => void act(addPasskey)}>
                  Add a passkey
                </button>
              )}
              <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => setPassphrase("")}>
                {info.methods.some((m) => m.kind === "passphrase") ? "Change passphrase" : "Add a passphrase"}
              </button>
              <button
                type="button"
                className={buttonStyles.secondary}
                disabled={busy}
                onClick={() =>
                  void act(async () => {
                    setCodeSaved(false);
                    setCode(await newRecoveryCode());
                  })
                }
              >
                New recovery code
              </button>
              <RotateKey info={info} busy={busy} request={rotateRequest} />
              <button type="button" className={buttonStyles.secondary} onClick={lockVault}>
                Lock now
              </button>
            </div>
            {passphrase !== null && (
              <ChangePassphraseForm
                value={passphrase}
                onChange={setPassphrase}
                onCancel={() => setPassphrase(null)}
                busy={busy}
                onSubmit={() =>
                  void act(async () => {
                    await changePassphrase(passphrase);
                    setPassphrase(null);
                  })
                }
              />
            )}
            <RememberedDevices unlocked />
            {error && (
              <p role="alert" className="mt-2 text-red-700">
                {error}
              </p>
            )}
          </>
        )}
        <WhatHushCanSee />
      </div>

      <Dialog
        open={code !== null}
        onClose={() => codeSaved && setCode(null)}
        title="Your new recovery code"
        actions={
          <button type="button" className={buttonStyles.primary} disabled={!codeSaved} onClick={() => setCode(null)}>
            Done
          </button>
        }
      >
        <p>The old recovery code no longer works.</p>
        {code && <RecoveryCodeBox code={code} saved={codeSaved} onSavedChange={setCodeSaved} />}
      </Dialog>

      <ConfirmDialog
        open={removing !== null}
        title="Remove this passkey?"
        confirmLabel="Remove"
        onCancel={() => {
          setRemoving(null);
          setCompromised(false);
        }}
        onConfirm={() => {
          const rotate = compromised;
          setCompromised(false);
          if (removing)
            void act(async () => {
              await removeMethod(removing.id);
              if (rotate) setRotateRequest((n) => n + 1);
            });
        }}
      >
        It will no longer unlock your saved chats. Your other ways to unlock keep working.
        <label className="mt-3 flex items-start gap-2 text-ink-900">
          <input type="checkbox" className="mt-1 h-4 w-4" checked={compromised} onChange={(e) => setCompromised(e.target.checked)} />
          <span>
            Someone else may have used it: rotate the vault key next, so that nothing this passkey ever opened opens anything
            again.
          </span>
        </label>
      </ConfirmDialog>
    </section>
  );
}

/** A passkey can be removed while another method is left. */
function MethodList({ methods, busy, onRemove }: { methods: StoredMethod[]; busy: boolean; onRemove: (method: StoredMethod) => void }) {
  return (
    <>
      <h3 className="mt-4 font-semibold text-ink-900">Ways to unlock</h3>
      <ul className="mt-2 divide-y divide-ink-100 rounded-xl border border-ink-200" data-testid="vault-methods">
        {methods.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
            <span>
              <span className="font-medium text-ink-900">{KIND_NAMES[m.kind]}</span>
              <span className="block text-xs text-ink-500">
                Added {when.format(new Date(m.created_at))}
                {m.last_used_at ? ` · last used ${when.format(new Date(m.last_used_at))}` : ""}
              </span>
            </span>
            {m.kind === "passkey" && methods.length > 1 && (
              <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => onRemove(m)}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

function ChangePassphraseForm(props: { value: string; onChange: (value: string) => void; busy: boolean; onSubmit: () => void; onCancel: () => void }) {
  const formRef = useRef<HTMLFormElement>(null);
  // Opened by a button far up the section: bring the form into view.
  useEffect(() => {
    const form = formRef.current;
    form?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    form?.querySelector<HTMLInputElement>("input")?.focus({ preventScroll: true });
  }, []);
  return (
    <form
      ref={formRef}
      className="mt-3 max-w-sm"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      <NewPassphraseField id="new-passphrase" label="New passphrase" value={props.value} onChange={props.onChange} />
      <div className="mt-2 flex gap-2">
        <button type="submit" className={buttonStyles.primary} disabled={props.busy}>
          Save passphrase
        </button>
        <button type="button" className={buttonStyles.secondary} onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What the server holds and sees, per model (docs/issues.md #20). */
function WhatHushCanSee() {
  return (
    <div className="mt-6 rounded-xl border border-ink-200 bg-ink-50 p-4" data-testid="what-hush-can-see">
      <h3 className="font-semibold text-ink-900">What Hush can see</h3>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>
          <strong>Saved chats</strong> (titles, messages, PDF text) are encrypted in your browser with a key only you hold. Hush
          stores them but has no key that opens them, even with full access to its servers and database.
        </li>
        <li>
          <strong>Each message you send</strong> depends on the model: <ModelPrivacyLines />
        </li>
        <li>
          <strong>What Hush does store</strong>: your e-mail address, your plan, when each saved chat was last updated, how many
          messages it has, and how many messages you send a day (for the daily limit).
        </li>
        <li>
          <strong>If you lose</strong> every passkey, your passphrase and your recovery code, your saved chats cannot be opened
          again by anyone, Hush included.
        </li>
      </ul>
    </div>
  );
}
