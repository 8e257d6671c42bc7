import type { LandingContent } from "@/content/landing";
import { ButtonLink } from "./button-link";
import { LockIcon, PaperclipIcon } from "./icons";
import { container } from "./section";

/** The "Chat Freely" hero of docs/product.md §2 with its two calls to action and an illustration of a chat. */
export function Hero({ hero }: { hero: LandingContent["hero"] }) {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(56rem_28rem_at_50%_-4rem,var(--color-brand-100),transparent_70%)]"
      />
      <div className={`${container} pt-16 text-center sm:pt-24`}>
        <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/80 px-3.5 py-1.5 text-sm font-medium text-brand-800">
          <LockIcon className="h-4 w-4" />
          {hero.eyebrow}
        </p>
        <h1 id="hero-title" className="mt-6 text-5xl font-semibold tracking-tight text-ink-950 sm:text-7xl">
          {hero.title}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-ink-600 sm:text-xl sm:leading-9">{hero.lead}</p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink cta={hero.primary} variant="primary" />
          <ButtonLink cta={hero.secondary} variant="secondary" />
        </div>
        <p className="mt-5 text-sm text-ink-600">{hero.note}</p>
      </div>
      <ChatIllustration />
    </section>
  );
}

/** A still picture of a Hush chat, built from markup so it costs no image request. */
function ChatIllustration() {
  return (
    <div aria-hidden="true" className={`${container} mt-14 pb-12 sm:mt-16`}>
      <div className="mx-auto max-w-3xl overflow-hidden rounded-2xl border border-ink-200 bg-white text-left shadow-2xl shadow-ink-900/10">
        <div className="flex items-center justify-between border-b border-ink-100 px-4 py-3 sm:px-5">
          <div className="flex gap-1.5">
            <span className="h-2.5 w-2.5 rounded-full bg-ink-200" />
            <span className="h-2.5 w-2.5 rounded-full bg-ink-200" />
            <span className="h-2.5 w-2.5 rounded-full bg-ink-200" />
          </div>
          <span className="inline-flex items-center gap-1.5 rounded-full bg-ink-50 px-2.5 py-1 text-xs font-medium text-ink-700">
            <LockIcon className="h-3.5 w-3.5" /> Encrypted with your key
          </span>
        </div>
        <div className="space-y-5 px-4 py-6 sm:px-8 sm:py-8">
          <div className="flex flex-col items-end gap-2">
            <span className="inline-flex items-center gap-1.5 rounded-lg border border-ink-200 bg-ink-50 px-2.5 py-1 text-xs font-medium text-ink-700">
              <PaperclipIcon className="h-3.5 w-3.5" /> supplier-agreement.pdf
            </span>
            <p className="max-w-[85%] rounded-2xl rounded-br-md bg-brand-600 px-4 py-2.5 text-sm leading-6 text-white sm:text-base">
              Summarise the termination clause and flag anything unusual.
            </p>
          </div>
          <div className="flex gap-3">
            <span className="mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-700">
              <LockIcon className="h-4 w-4" />
            </span>
            <div className="max-w-[85%] space-y-2 text-sm leading-6 text-ink-800 sm:text-base">
              <p>Either party may end the agreement with 30 days&apos; written notice.</p>
              <p>
                <span className="font-semibold text-ink-950">Worth a second look:</span> clause 14.2 lets the supplier
                terminate at once if payment is more than 7 days late, with no chance to fix it.
              </p>
            </div>
          </div>
        </div>
        <div className="border-t border-ink-100 px-4 py-3 sm:px-5">
          <div className="flex items-center gap-3 rounded-xl border border-ink-200 px-3 py-2.5 text-sm text-ink-600">
            <PaperclipIcon className="h-4 w-4" />
            Message GPT
          </div>
        </div>
      </div>
    </div>
  );
}
