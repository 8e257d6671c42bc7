"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { ExternalToast, toast as sonnerToast } from "sonner";

/**
 * The one toast area of the app (sonner, bundled with the app: no third-party request), in the
 * current theme. Call `toast("Copied")`, `toast.success(...)`, `toast.error(...)` from any client
 * component; messages are announced politely to screen readers by sonner.
 *
 * Sonner is not part of any page's first load. Every toast follows something the user did,
 * so the toast area mounts at the first key, tap or click (before the toast it leads to, so the live
 * region exists when a message is added), or at the first `toast()` call, whichever comes first; a toast
 * created before the area has subscribed is shown when it does (sonner replays active toasts).
 */
const SonnerToaster = dynamic(() => import("./sonner-toaster").then((m) => m.SonnerToaster), { ssr: false });

type Message = Parameters<typeof sonnerToast>[0];
let sonner: Promise<typeof import("sonner")> | null = null;
let wanted = false;
const onWanted = new Set<() => void>();

/** Ask for the toast area (idempotent); sonner's code starts loading now. */
function want() {
  sonner ??= import("sonner");
  if (wanted) return;
  wanted = true;
  onWanted.forEach((listener) => listener());
}

function show(kind: "success" | "error" | null, message: Message, data?: ExternalToast): void {
  want();
  void sonner!.then(({ toast }) => (kind ? toast[kind] : toast)(message, data));
}

/** sonner's `toast`, `toast.success` and `toast.error` (shown once sonner has loaded, a moment later). */
export const toast = Object.assign((message: Message, data?: ExternalToast) => show(null, message, data), {
  success: (message: Message, data?: ExternalToast) => show("success", message, data),
  error: (message: Message, data?: ExternalToast) => show("error", message, data),
});

const FIRST_USE = ["keydown", "pointerdown", "touchstart"] as const;

/** The toast area, in the root layout; renders nothing until first wanted (see above). */
export function Toaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const stopListening = () => FIRST_USE.forEach((e) => window.removeEventListener(e, want, true));
    const mount = () => {
      stopListening();
      setMounted(true);
    };
    if (wanted) {
      mount();
      return;
    }
    onWanted.add(mount);
    FIRST_USE.forEach((e) => window.addEventListener(e, want, { capture: true, passive: true }));
    return () => {
      onWanted.delete(mount);
      stopListening();
    };
  }, []);
  return mounted ? <SonnerToaster /> : null;
}
