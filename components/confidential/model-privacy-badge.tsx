"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { Dialog } from "@/components/ui/dialog";
import type { VerifiedEnclave } from "@/lib/browser/confidential/attestation";
import { latestReceipt, subscribeReceipts } from "@/lib/browser/confidential/receipt-store";
import { isConfidentialCode } from "@/lib/shared/confidential/protocol";
import type { ConfidentialTurnReceipt } from "@/lib/browser/confidential/turn";
import { useConfidential } from "./confidential-context";
import { confidentialClient } from "./send-turn";

type Verification = { status: "verifying" } | { status: "verified"; enclave: VerifiedEnclave } | { status: "failed" };

/**
 * Beside the model name: for a confidential model a badge that says "Verified" only once the
 * browser has verified the enclave's attestation itself ("Verified (development)" under development trust),
 * opening the receipt; for a standard model the honest line "Standard: Hush's server and <provider> process
 * your messages".
 */
export function ModelPrivacyBadge({ model }: { model: string }) {
  const { config, privacy } = useConfidential();
  const confidential = isConfidentialCode(config, model);
  const line = privacy.find((p) => p.code === model);
  const [open, setOpen] = useState(false);
  const [verification, setVerification] = useState<Verification>({ status: "verifying" });
  const receipt = useSyncExternalStore(subscribeReceipts, latestReceipt, () => null);

  useEffect(() => {
    if (!config || !confidential) return;
    let live = true;
    // The verifier loads here, after the page is interactive (not part of /chat's first load).
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
          className="inline-flex max-w-[11rem] items-center truncate rounded-full bg-ink-100 px-2.5 py-1 text-xs font-medium text-ink-700 ring-1 ring-ink-200 hover:bg-ink-200 sm:max-w-md"
        >
          <span className="sm:hidden">Standard</span>
          <span className="hidden truncate sm:inline">{line.line}</span>
        </button>
        <Dialog open={open} onClose={() => setOpen(false)} title="Standard model" actions={<CloseButton onClose={() => setOpen(false)} />}>
          <p data-testid="standard-privacy-line">{line.line}.</p>
          <p className="mt-2">
            Your messages pass through Hush&apos;s server in memory on their way to {line.providerName}, which processes them to answer.
            Hush does not store or log them. Saved chats stay encrypted with your key either way.
          </p>
        </Dialog>
      </>
    );
  }

  // On a phone "(development)" goes under "Verified" so the header keeps one line; the text stays "Verified (development)".
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
      <Dialog open={open} onClose={() => setOpen(false)} title={development ? "Confidential model (development)" : "Confidential model"} actions={<CloseButton onClose={() => setOpen(false)} />}>
        <div data-testid="confidential-receipt">
          {enclave ? <Verified enclave={enclave} /> : failed ? <NotVerified /> : <p>Checking the secure enclave&apos;s attestation…</p>}
          <ServerSaw receipt={receipt} />
        </div>
      </Dialog>
    </>
  );
}

function CloseButton({ onClose }: { onClose: () => void }) {
  return (
    <button
      type="button"
      onClick={onClose}
      className="inline-flex h-9 items-center justify-center rounded-lg bg-ink-900 px-4 text-sm font-semibold text-white hover:bg-ink-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      Close
    </button>
  );
}

function Verified({ enclave }: { enclave: VerifiedEnclave }) {
  const development = enclave.trust === "development";
  return (
    <>
      <h3 className="mt-3 font-semibold text-ink-900">What your browser verified</h3>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-ink-500">Hardware</dt>
        <dd>{enclave.hardware}</dd>
        <dt className="text-ink-500">Enclave host</dt>
        <dd className="break-all">{enclave.enclaveHost}</dd>
        <dt className="text-ink-500">Code measurement</dt>
        <dd className="break-all font-mono">{enclave.codeFingerprint}</dd>
        <dt className="text-ink-500">Signed source release</dt>
        <dd className="break-all">
          {enclave.sourceRelease.repo} <span className="font-mono">{enclave.sourceRelease.digest.slice(0, 16)}…</span>
        </dd>
        <dt className="text-ink-500">Verified at</dt>
        <dd>
          <time dateTime={enclave.verifiedAt.toISOString()}>{enclave.verifiedAt.toLocaleString()}</time>
        </dd>
      </dl>
      <h3 className="mt-4 font-semibold text-ink-900">What it means</h3>
      {development ? (
        <p className="mt-1">
          This is the <strong>development</strong> enclave: an ordinary process signed with a key published in Hush&apos;s source code,
          with no hardware isolation. Your messages are encrypted in your browser to it, so Hush&apos;s server relays only ciphertext,
          but anyone running this development setup could read them. Never use it for real conversations.
        </p>
      ) : (
        <p className="mt-1">
          Your browser checked that this model runs inside isolated hardware, running exactly the published source release, and
          encrypted your message to a key only that enclave holds. Hush&apos;s server passes the encrypted message along and cannot
          read it, nor can the cloud operator.
        </p>
      )}
    </>
  );
}

function NotVerified() {
  return (
    <>
      <h3 className="mt-3 font-semibold text-red-800">The secure enclave could not be verified</h3>
      <p className="mt-1">
        Your browser will not send messages to this model until its attestation verifies: nothing you type is sent. Try again later,
        or choose another model.
      </p>
    </>
  );
}

function ServerSaw({ receipt }: { receipt: ConfidentialTurnReceipt | null }) {
  return (
    <>
      <h3 className="mt-4 font-semibold text-ink-900">What Hush&apos;s server saw</h3>
      {receipt ? (
        <p className="mt-1" data-testid="receipt-transport">
          Your last message: {formatBytes(receipt.transport.requestCiphertextBytes)} of ciphertext sent, {formatBytes(receipt.transport.responseCiphertextBytes)} of
          ciphertext received, the model&apos;s name and the time
          {receipt.transport.completeMs !== undefined ? ` (the answer took ${(receipt.transport.completeMs / 1000).toFixed(1)} s)` : ""}. No
          text: not your message, not your documents, not the answer.
        </p>
      ) : (
        <p className="mt-1">Only the size and timing of the encrypted messages, and which model they are for. No message sent yet in this tab.</p>
      )}
    </>
  );
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
