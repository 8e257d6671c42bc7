import Link from "next/link";
import type { Cta } from "@/content/landing";

const base =
  "inline-flex items-center justify-center gap-2 rounded-xl px-5 py-3 text-base font-semibold transition-colors";

/** Look of a call-to-action link: primary is the brand button, secondary the quiet outline one. */
export const buttonClass = {
  primary: `${base} bg-brand-600 text-white shadow-sm shadow-brand-900/20 hover:bg-brand-700`,
  secondary: `${base} border border-ink-200 bg-white text-ink-900 hover:border-ink-300 hover:bg-ink-50`,
} as const;

/** An internal link that looks like a button. */
export function ButtonLink({ cta, variant, className = "" }: { cta: Cta; variant: keyof typeof buttonClass; className?: string }) {
  return (
    <Link href={cta.href} className={`${buttonClass[variant]} ${className}`}>
      {cta.label}
    </Link>
  );
}
