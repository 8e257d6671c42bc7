"use client";

/**
 * The "Remember this device" box of the unlock panel and the setup dialog, unticked by
 * default, with the honest line on what it means.
 */
export function RememberDeviceBox({ checked, onChange, id }: { checked: boolean; onChange: (v: boolean) => void; id: string }) {
  return (
    <div className="mt-3">
      <label htmlFor={id} className="flex items-start gap-2 text-ink-900">
        <input id={id} type="checkbox" className="mt-1 h-4 w-4" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-help`} />
        <span>Remember this device</span>
      </label>
      <p id={`${id}-help`} className="ml-6 mt-0.5 text-xs text-ink-600">
        Saved chats open here without asking until you revoke this device in Settings. Use it only on a device that is yours alone.
      </p>
    </div>
  );
}
