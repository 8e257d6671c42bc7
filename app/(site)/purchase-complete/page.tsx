import type { Metadata } from "next";
import Link from "next/link";
import { buttonClass } from "@/components/landing/button-link";
import { RefreshAccount } from "@/components/pricing/refresh-account";

export const metadata: Metadata = { title: "Thank you", robots: { index: false, follow: false } };

/** /purchase-complete (docs/product.md §2): the thank-you page after Stripe Checkout, "Start Chatting" to /chat. */
export default function PurchaseCompletePage() {
  return (
    <div className="mx-auto flex w-full max-w-xl flex-1 flex-col items-center justify-center px-4 py-20 text-center">
      <RefreshAccount />
      <h1 className="text-4xl font-semibold tracking-tight text-ink-950">Thank you!</h1>
      <p className="mt-4 text-lg text-ink-600">Your Pro plan is being activated. It takes a moment to show everywhere.</p>
      <Link href="/chat" className={`${buttonClass.primary} mt-10`}>
        Start Chatting
      </Link>
    </div>
  );
}
