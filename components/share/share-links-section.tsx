"use client";

import { useEffect, useState } from "react";
import { serverMessage } from "@/lib/browser/api/client";
import { listMyShares, revokeMyShare } from "@/lib/browser/share/client";
import type { ShareInfoJson } from "@/lib/shared/share/schemas";
import { formatBytes } from "@/lib/shared/bytes";
import { buttonStyles, ConfirmDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { LoadingBlock } from "@/components/ui/loading";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Settings → Share links, each revocable; listed by date and size, since the server cannot read titles. */
export function ShareLinksSection() {
  const [shares, setShares] = useState<ShareInfoJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [revoking, setRevoking] = useState<ShareInfoJson | null>(null);

  useEffect(() => {
    let live = true;
    listMyShares().then(
      (list) => live && setShares(list),
      (e: unknown) => live && setError(serverMessage(e) ?? "Your share links could not be loaded."),
    );
    return () => {
      live = false;
    };
  }, []);

  const revoke = async (share: ShareInfoJson) => {
    setBusy(true);
    setError(null);
    try {
      setShares(await revokeMyShare(share.id));
      toast.success("Share link revoked");
    } catch (e) {
      setError(serverMessage(e) ?? "Could not revoke the link. Check your connection and try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="shares-h" className="mt-8 rounded-2xl border border-ink-200 bg-white" data-testid="share-links">
      <h2 id="shares-h" className="border-b border-ink-100 px-5 py-3 text-sm font-semibold text-ink-900">
        Share links
      </h2>
      <div className="px-5 py-4 text-sm text-ink-700">
        <p>
          Links you made with Share in a chat. Each is a read-only copy encrypted in your browser; Hush&apos;s server stores only ciphertext, so it
          cannot show titles here. Revoking a link deletes the copy: the link then shows &quot;not found&quot;.
        </p>
        {shares === null && !error && (
          <LoadingBlock className="mt-2" />
        )}
        {shares !== null && shares.length === 0 && <p className="mt-2">You have not shared any chat.</p>}
        {shares !== null && shares.length > 0 && (
          <ul className="mt-3 divide-y divide-ink-100 rounded-xl border border-ink-200">
            {shares.map((s, i) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <span>
                  <span className="font-medium text-ink-900">Shared chat {shares.length - i}</span>
                  <span className="block text-xs text-ink-600">
                    Created {when.format(new Date(s.created_at))} · {formatBytes(s.bytes)}
                  </span>
                </span>
                <button
                  type="button"
                  className={buttonStyles.secondary}
                  disabled={busy}
                  onClick={() => setRevoking(s)}
                  aria-label={`Revoke the share link created ${when.format(new Date(s.created_at))}`}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p role="alert" className="mt-2 text-red-700">
            {error}
          </p>
        )}
      </div>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this share link?"
        confirmLabel="Revoke link"
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const share = revoking;
          setRevoking(null);
          if (share) void revoke(share);
        }}
      >
        Anyone who opens the link will see &quot;not found&quot;. Your chat itself is not affected.
      </ConfirmDialog>
    </section>
  );
}
