"use client";

import { useCallback, useEffect, useState } from "react";
import { buttonStyles, ConfirmDialog } from "@/components/ui/dialog";
import { AppError } from "@/lib/shared/errors";
import { listRememberedDevices, rememberThisDevice, revokeRememberedDevice, thisDeviceId } from "@/lib/browser/vault/devices";
import type { VaultDevicesJson } from "@/lib/browser/vault/store";
import { useAction } from "./use-action";
import { LoadingBlock } from "@/components/ui/loading";

type Device = VaultDevicesJson["devices"][number];
const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** Settings → Security → Remembered devices; "Revoke" deletes the server's share, so that device opens nothing. */
export function RememberedDevices({ unlocked }: { unlocked: boolean }) {
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [mine, setMine] = useState<string | null>(null);
  const { busy, error, setError, act } = useAction();
  const [revoking, setRevoking] = useState<Device | null>(null);

  const reload = useCallback(async () => {
    const [list, id] = await Promise.all([listRememberedDevices(), thisDeviceId()]);
    setDevices(list.devices);
    setMine(id);
  }, []);

  useEffect(() => {
    let live = true;
    Promise.all([listRememberedDevices(), thisDeviceId()]).then(
      ([list, id]) => {
        if (!live) return;
        setDevices(list.devices);
        setMine(id);
      },
      (e: unknown) => live && setError(e instanceof AppError ? e.message : "Your remembered devices could not be loaded."),
    );
    return () => {
      live = false;
    };
  }, [setError]);

  const thisOneListed = mine !== null && devices?.some((d) => d.id === mine);

  return (
    <div className="mt-5" data-testid="remembered-devices">
      <h3 className="font-semibold text-ink-900">Remembered devices</h3>
      <p className="mt-1 text-ink-600">
        These open your saved chats without asking. Revoking one makes its stored copy useless; it does not sign that device out (it
        stays signed in until it logs out or its session ends), but its saved chats stay locked there.
      </p>
      {devices === null && !error && (
        <LoadingBlock className="mt-2" />
      )}
      {devices !== null && devices.length === 0 && <p className="mt-2">No device is remembered.</p>}
      {devices !== null && devices.length > 0 && (
        <ul className="mt-2 divide-y divide-ink-100 rounded-xl border border-ink-200">
          {devices.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span>
                <span className="font-medium text-ink-900">{d.name}</span>
                {d.id === mine && <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">This device</span>}
                <span className="block text-xs text-ink-500">
                  Remembered {when.format(new Date(d.created_at))}
                  {d.last_used_at ? ` · last used ${when.format(new Date(d.last_used_at))}` : ""}
                </span>
              </span>
              <button type="button" className={buttonStyles.secondary} disabled={busy} onClick={() => setRevoking(d)} aria-label={`Revoke ${d.name}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      {unlocked && devices !== null && !thisOneListed && (
        <button
          type="button"
          className={`${buttonStyles.secondary} mt-3`}
          disabled={busy}
          onClick={() =>
            void act(async () => {
              await rememberThisDevice();
              await reload();
            })
          }
        >
          Remember this device
        </button>
      )}
      {error && (
        <p role="alert" className="mt-2 text-red-700">
          {error}
        </p>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this device?"
        confirmLabel="Revoke"
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          const device = revoking;
          setRevoking(null);
          if (device)
            void act(async () => {
              setDevices((await revokeRememberedDevice(device.id)).devices);
              setMine(await thisDeviceId());
            });
        }}
      >
        {revoking?.id === mine
          ? "This browser will ask for your passkey, passphrase or recovery code again after a reload."
          : `${revoking?.name ?? "That device"} will ask for your passkey, passphrase or recovery code again.`}{" "}
        It stays signed in until it logs out or its session ends. Your saved chats are not affected.
      </ConfirmDialog>
    </div>
  );
}
