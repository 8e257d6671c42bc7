"use client";

import { useEffect, useState } from "react";
import { buttonStyles } from "@/components/ui/dialog";
import { useAction } from "@/components/vault/use-action";
import { RememberDeviceBox } from "@/components/vault/remember-device";
import { preloadVaultMethods } from "@/lib/browser/vault/methods";
import type { VaultJson } from "@/lib/browser/vault/store";
import { unlockPassphrase, unlockPasskey, unlockRecovery } from "@/lib/browser/vault/unlock";

const inputClass =
  "mt-1 w-full rounded-lg border border-ink-300 bg-white px-3 py-2 text-base text-ink-900 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

/**
 * Saved history is locked (a new browser, or after a reload): unlock with a passkey tap, the
 * passphrase or the recovery code. A wrong secret says so and changes nothing.
 */
export function UnlockPanel({ info }: { info: VaultJson }) {
  useEffect(preloadVaultMethods, []);
  const hasPasskey = info.methods.some((m) => m.kind === "passkey");
  const hasPassphrase = info.methods.some((m) => m.kind === "passphrase");
  const [mode, setMode] = useState<"passphrase" | "recovery">(hasPassphrase ? "passphrase" : "recovery");
  const [secret, setSecret] = useState("");
  const { busy, error, setError, act: attempt } = useAction("Could not unlock. Please try again.");
  const [remember, setRemember] = useState(false);

  return (
    <section aria-labelledby="vault-locked-h" data-testid="vault-locked" className="m-3 rounded-xl border border-ink-200 bg-white p-4 text-sm">
      <h2 id="vault-locked-h" className="flex items-center gap-2 font-semibold text-ink-900">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <rect x="5" y="11" width="14" height="9" rx="2" />
          <path d="M8 11V8a4 4 0 0 1 8 0v3" />
        </svg>
        Saved chats are locked
      </h2>
      <p className="mt-1 text-ink-600">They are encrypted with a key only you hold. Unlock them in this browser; new chats are not saved until then.</p>
      <RememberDeviceBox id="vault-unlock-remember" checked={remember} onChange={setRemember} />
      {hasPasskey && (
        <button type="button" disabled={busy} onClick={() => void attempt(() => unlockPasskey(remember))} className={`${buttonStyles.primary} mt-3 w-full`}>
          Unlock with passkey
        </button>
      )}
      <form
        className="mt-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!secret || busy) return;
          void attempt(() => (mode === "passphrase" ? unlockPassphrase(secret, remember) : unlockRecovery(secret, remember)));
        }}
      >
        <label htmlFor="vault-unlock-secret" className="block font-medium text-ink-900">
          {mode === "passphrase" ? "Passphrase" : "Recovery code"}
        </label>
        <input
          id="vault-unlock-secret"
          type={mode === "passphrase" ? "password" : "text"}
          autoComplete={mode === "passphrase" ? "current-password" : "off"}
          spellCheck={false}
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          placeholder={mode === "recovery" ? "XXXX-XXXX-…" : undefined}
          className={inputClass}
        />
        <button type="submit" disabled={busy || !secret} className={`${hasPasskey ? buttonStyles.secondary : buttonStyles.primary} mt-2 w-full`}>
          {busy ? "Unlocking…" : "Unlock"}
        </button>
      </form>
      {error && (
        <p role="alert" className="mt-2 text-red-700">
          {error}
        </p>
      )}
      <button
        type="button"
        className="mt-2 text-xs font-medium text-brand-700 underline"
        onClick={() => {
          setMode(mode === "passphrase" ? "recovery" : "passphrase");
          setSecret("");
          setError(null);
        }}
        hidden={!hasPassphrase}
      >
        {mode === "passphrase" ? "Use your recovery code instead" : "Use your passphrase instead"}
      </button>
    </section>
  );
}
