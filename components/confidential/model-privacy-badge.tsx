"use client";

import dynamic from "next/dynamic";
import { useEffect, useState, useSyncExternalStore } from "react";
import { useOpenedOnce } from "@/components/ui/use-opened-once";
import type { VerifiedEnclave } from "@/lib/browser/confidential/attestation";
import { latestReceipt, subscribeReceipts } from "@/lib/browser/confidential/receipt-store";
import { isConfidentialCode } from "@/lib/shared/confidential/protocol";
import { useConfidential } from "./confidential-context";
import { confidentialClient } from "./send-turn";

// The dialogs' text is fetched when one is first opened, not in /chat's first load (docs/issues.md #42).
const StandardModelDialog = dynamic(() => import("./privacy-dialogs").then((m) => m.StandardModelDialog), { ssr: false });
const ConfidentialReceiptDialog = dynamic(() => import("./privacy-dialogs").then((m) => m.ConfidentialReceiptDialog), { ssr: false });

type Verification = { status: "verifying" } | { status: "verified"; enclave: VerifiedEnclave } | { status: "failed" };

/** Beside the model name: "Verified" only once this browser verified the enclave, or who processes a standard model's messages. */
export function ModelPrivacyBadge({ model }: { model: string }) {
  const { config, privacy } = useConfidential();
  const confidential = isConfidentialCode(config, model);
  const line = privacy.find((p) => p.code === model);
  const [open, setOpen] = useState(false);
  const shown = useOpenedOnce(open);
  const [verification, setVerification] = useState<Verification>({ status: "verifying" });
  const receipt = useSyncExternalStore(subscribeReceipts, latestReceipt, () => null);

  useEffect(() => {
    if (!config || !confidential) return;
    let live = true;
    confidentialClient()
      .then((c) => c.verifiedEnclave(config))
      .then(
        ({ enclave }) => live && setVerification({ status: "verified", enclave }),
        () => live && setVerification({ status: "failed" }),
      );
    return () => {
      live = false;
    };
  }, [config, confidential]);

  // A turn verified (or re-verified) the enclave more recently than the badge did.
  const enclave = receipt?.enclave ?? (verification.status === "verified" ? verification.enclave : null);
  const failed = verification.status === "failed" && !receipt;
  const development = config?.trust === "development";

  if (!confidential) {
    if (!line) return null;
    return (
      <>
        <button
          type="button"
          data-testid="model-privacy-badge"
          aria-label={line.line}
          onClick={() => setOpen(true)}
          className="inline-flex max-w-[11rem] items-center truncate rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700 ring-1 ring-ink-200 hover:bg-ink-200 @5xl:max-w-md"
        >
          <span className="truncate @5xl:hidden">Standard</span>
          <span className="hidden truncate @5xl:inline">{line.line}</span>
        </button>
        {shown && <StandardModelDialog open={open} onClose={() => setOpen(false)} line={line} />}
      </>
    );
  }

  // On a phone "(development)" goes under "Verified" so the header keeps one line.
  const label =
    enclave !== null ? (
      development ? (
        <span className="flex flex-col items-start leading-tight sm:flex-row sm:gap-1">
          <span>Verified</span> <span className="text-[10px] font-medium sm:text-xs sm:font-semibold">(development)</span>
        </span>
      ) : (
        "Verified"
      )
    ) : failed ? (
      "Not verified"
    ) : (
      "Verifying…"
    );
  return (
    <>
      <button
        type="button"
        data-testid="model-privacy-badge"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ${
          failed ? "bg-red-50 text-red-800 ring-red-200" : development ? "bg-amber-50 text-amber-900 ring-amber-300" : "bg-emerald-50 text-emerald-800 ring-emerald-200"
        }`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round">
          {failed ? <path d="M12 8v5M12 16.5v.5M10.3 3.9 2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" /> : <path d="M12 3 4 6v6c0 5 3.4 8.3 8 9 4.6-.7 8-4 8-9V6l-8-3Zm-3.5 9 2.5 2.5 4.5-5" />}
        </svg>
        {label}
      </button>
      {shown && (
        <ConfidentialReceiptDialog open={open} onClose={() => setOpen(false)} development={development} enclave={enclave} failed={failed} receipt={receipt} />
      )}
    </>
  );
}
