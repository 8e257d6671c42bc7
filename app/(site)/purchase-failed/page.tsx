import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/landing/button-link";

export const metadata: Metadata = { title: "Payment not completed", robots: { index: false, follow: false } };

/** /purchase-failed (docs/product.md §2): Stripe Checkout was cancelled or failed; "Try Again" to /pricing. */
export default function PurchaseFailedPage() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-20 text-center">
      <h1 className="text-4xl font-semibold tracking-tight text-ink-950">Payment not completed</h1>
      <p className="mt-4 text-lg text-ink-600">Nothing was charged. You can try again whenever you like.</p>
      <Link href="/pricing" className={`${buttonClass.primary} mt-10`}>
        Try Again
      </Link>
    </div>
  );
}
