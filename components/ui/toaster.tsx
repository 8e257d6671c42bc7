"use client";

import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import type { ExternalToast, toast as sonnerToast } from "sonner";

// The app's one toast area (sonner), not in any page's first load: every toast follows something the user did,
// so it mounts at the first key, tap or click (the live region then exists before the toast) or `toast()` call.
const SonnerToaster = dynamic(() => import("./sonner-toaster").then((m) => m.SonnerToaster), { ssr: false });

type Message = Parameters<typeof sonnerToast>[0];
let sonner: Promise<typeof import("sonner")> | null = null;
let wanted = false;
const onWanted = new Set<() => void>();

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

/** sonner's `toast`, `toast.success` and `toast.error`, shown once sonner has loaded. */
export const toast = Object.assign((message: Message, data?: ExternalToast) => show(null, message, data), {
  success: (message: Message, data?: ExternalToast) => show("success", message, data),
  error: (message: Message, data?: ExternalToast) => show("error", message, data),
});

const FIRST_USE = ["keydown", "pointerdown", "touchstart"] as const;

/** The toast area, in the root layout; renders nothing until first wanted. */
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
