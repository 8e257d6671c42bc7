"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";

/**
 * Light, dark or the system's choice, via next-themes: the `dark` class on <html>, set by a
 * tiny inline script before first paint (no flash of the wrong theme), remembered in localStorage
 * ("theme"). `nonce` is for a nonce-based Content-Security-Policy (see app/layout.tsx).
 */
export function ThemeProvider({ children, nonce }: { children: React.ReactNode; nonce?: string }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
      {children}
    </NextThemesProvider>
  );
}
