import { siteConfig } from "@/config/site";

/** /appsignup stands outside the shared layout (docs/product.md §2): a minimal centered page for the desktop app. */
export default function AppSignupLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-b from-brand-50 via-white to-white px-4 py-10">
      <p className="mb-8 flex items-center gap-2 text-lg font-semibold tracking-tight text-ink-950">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7 text-brand-600" fill="none">
          <rect x="3" y="3" width="18" height="18" rx="6" fill="currentColor" />
          <path d="M9 11V9.5a3 3 0 0 1 6 0V11" stroke="white" strokeWidth="1.6" strokeLinecap="round" />
          <rect x="8" y="11" width="8" height="6" rx="1.6" fill="white" />
        </svg>
        {siteConfig.name}
      </p>
      {children}
    </main>
  );
}
