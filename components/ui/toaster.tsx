"use client";

import { useTheme } from "next-themes";
import { Toaster as Sonner, toast } from "sonner";

/**
 * The one toast area of the app (sonner, bundled with the app: no third-party request), in the
 * current theme. Call `toast("Copied")`, `toast.success(...)`, `toast.error(...)` from any client
 * component; messages are announced politely to screen readers by sonner.
 */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme === "dark" ? "dark" : "light"}
      position="bottom-center"
      closeButton
      toastOptions={{ duration: 4000 }}
      containerAriaLabel="Notifications"
    />
  );
}

export { toast };
