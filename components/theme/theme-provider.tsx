"use client";

import { ThemeProvider as NextThemesProvider } from "next-themes";

/** Light, dark or the system's choice via next-themes; `nonce` is for a nonce-based CSP (see app/layout.tsx). */
export function ThemeProvider({ children, nonce }: { children: React.ReactNode; nonce?: string }) {
  return (
    <NextThemesProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
      {children}
    </NextThemesProvider>
  );
}
