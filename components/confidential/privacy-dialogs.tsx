"use client";

import { Dialog } from "@/components/ui/dialog";
import type { VerifiedEnclave } from "@/lib/browser/confidential/attestation";
import type { ConfidentialTurnReceipt } from "@/lib/browser/confidential/turn";

/** The dialogs behind the model privacy badge: a standard model's line explained, or a confidential one's receipt. */
export function StandardModelDialog({ open, onClose, line }: { open: boolean; onClose: () => void; line: { line: string; providerName: string } }) {
  return (
    <Dialog open={open} onClose={onClose} title="Standard model" actions={<CloseButton onClose={onClose} />}>
      <p data-testid="standard-privacy-line">{line.line}.</p>
      <p className="mt-2">
        Your messages pass through Hush&apos;s server in memory on their way to {line.providerName}, which processes them to answer.
        Hush does not store or log them. Saved chats stay encrypted with your key either way.
      </p>
    </Dialog>
  );
}

/** The receipt of a confidential model: `enclave` once verified, `failed` when verification failed. */
export function ConfidentialReceiptDialog(props: {
  open: boolean;
  onClose: () => void;
  development: boolean;
  enclave: VerifiedEnclave | null;
  failed: boolean;
  receipt: ConfidentialTurnReceipt | null;
}) {
  const { open, onClose, development, enclave, failed, receipt } = props;
  return (
    <Dialog open={open} onClose={onClose} title={development ? "Confidential model (development)" : "Confidential model"} actions={<CloseButton onClose={onClose} />}>
      <div data-testid="confidential-receipt">
        {enclave ? <Verified enclave={enclave} /> : failed ? <NotVerified /> : <p>Checking the secure enclave&apos;s attestation…</p>}
        <ServerSaw receipt={receipt} />
      </div>
    </Dialog>
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
