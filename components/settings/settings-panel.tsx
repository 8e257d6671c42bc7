"use client";

import Link from "next/link";
import { useState } from "react";
import { signOutAndReload } from "@/lib/browser/account/sign-out";
import { apiFetch } from "@/lib/browser/api/client";
import { buttonStyles, Dialog } from "@/components/ui/dialog";
import { forgetLocalTraces, forgetThisDevice, isThisDeviceRemembered } from "@/lib/browser/vault/devices";
import { DataSection } from "./data-section";
import { MemorySection } from "./memory-section";
import { DeleteAccountSection } from "./delete-account";

interface SettingsPanelProps {
  email: string | null;
  plan: "Free" | "Pro";
  status: string;
  /** The vault's section (components/vault), placed by the page so settings imports no other feature. */
  security: React.ReactNode;
  /** The share links' section (components/share), placed likewise. */
  shareLinks: React.ReactNode;
}

/** /settings (docs/product.md §2). */
export function SettingsPanel({ email, plan, status, security, shareLinks }: SettingsPanelProps) {
  // Log out offers to forget a remembered device; otherwise it signs out at once (docs/product.md §2).
  const [loggingOut, setLoggingOut] = useState<"ask" | "working" | null>(null);
  const logOut = async () => {
    if (await isThisDeviceRemembered()) setLoggingOut("ask");
    else await signOutAndReload();
  };
  const finishLogOut = async (forget: boolean) => {
    setLoggingOut("working");
    if (forget) {
      await forgetThisDevice().catch(() => console.error("Could not revoke this device"));
      await forgetLocalTraces();
    }
    await signOutAndReload();
  };

  const manage = async () => {
    try {
      const { url } = await apiFetch("customerPortal", { body: {} });
      window.location.assign(url);
    } catch {
      console.error("Failed to open the customer portal");
    }
  };

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight text-ink-950">Settings</h1>

      <section aria-labelledby="account-h" className="mt-8 rounded-2xl border border-ink-200 bg-white">
        <h2 id="account-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-700">
          Account
        </h2>
        <dl className="divide-y divide-ink-100">
          <Row label="E-mail">
            <span className="break-all">{email ?? "—"}</span>
          </Row>
          <Row label="Plan">
            <span data-testid="plan-sentence" className="inline-flex flex-wrap items-center gap-2">
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${plan === "Pro" ? "bg-brand-100 text-brand-800" : "bg-ink-100 text-ink-700"}`}>{plan}</span>
              <span className="text-sm font-normal text-ink-700">{planSentence(plan, status)}</span>
            </span>
          </Row>
        </dl>
        <div className="flex flex-wrap gap-2 border-t border-ink-100 px-5 py-4">
          {status === "inactive" ? (
            <Link href="/pricing" className={buttonStyles.primary}>
              Upgrade
            </Link>
          ) : (
            <button type="button" onClick={() => void manage()} className={buttonStyles.primary}>
              Manage
            </button>
          )}
          <button type="button" onClick={() => void logOut()} className={buttonStyles.secondary}>
            Log out
          </button>
        </div>
      </section>

      {security}

      <MemorySection />

      <DataSection />

      {shareLinks}

      <DeleteAccountSection />

      <Dialog
        open={loggingOut !== null}
        onClose={() => loggingOut === "ask" && setLoggingOut(null)}
        title="Forget this device?"
        actions={
          <>
            <button type="button" className={buttonStyles.secondary} disabled={loggingOut === "working"} onClick={() => setLoggingOut(null)}>
              Cancel
            </button>
            <button type="button" className={buttonStyles.secondary} disabled={loggingOut === "working"} onClick={() => void finishLogOut(false)}>
              Keep remembered
            </button>
            <button type="button" className={buttonStyles.primary} disabled={loggingOut === "working"} onClick={() => void finishLogOut(true)}>
              {loggingOut === "working" ? "Logging out…" : "Forget and log out"}
            </button>
          </>
        }
      >
        <p>
          This browser opens your saved chats without asking. Forget it if others use this device: it is revoked, and your passkey,
          passphrase or recovery code is needed here next time.
        </p>
      </Dialog>

    </div>
  );
}

/** The plan and status as a sentence, the status word as the payment provider names it (docs/product.md §2). */
function planSentence(plan: "Free" | "Pro", status: string): string {
  const subscription =
    status === "inactive" ? "no paid subscription is active (status: inactive)" : `your subscription is ${status.replaceAll("_", " ")}`;
  return `You are on the ${plan} plan; ${subscription}.`;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-center sm:justify-between">
      <dt className="text-sm text-ink-600">{label}</dt>
      <dd className="text-sm font-medium text-ink-900">{children}</dd>
    </div>
  );
}
