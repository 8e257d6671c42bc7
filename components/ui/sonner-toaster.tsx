"use client";

import { useTheme } from "next-themes";
import { Toaster as Sonner } from "sonner";

/**
 * sonner's toast area in the current theme (see components/ui/toaster.tsx, which loads this on demand).
 * Messages are announced politely to screen readers by sonner.
 */
export function SonnerToaster() {
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
