import type { LandingContent } from "@/content/landing";
import { ButtonLink } from "./button-link";
import { container } from "./section";

/** The closing call to action of docs/product.md §2: "Try for free" and "Chat with us". */
export function ClosingCta({ section }: { section: LandingContent["closing"] }) {
  return (
    <section aria-labelledby="closing-title" className="pb-20 sm:pb-28">
      <div className={container}>
        <div className="relative isolate overflow-hidden rounded-3xl border border-brand-100 bg-brand-50 px-6 py-14 text-center sm:px-12 sm:py-20">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(40rem_20rem_at_50%_120%,var(--color-brand-200),transparent_70%)]"
          />
          <h2 id="closing-title" className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">
            {section.title}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg leading-8 text-ink-700">{section.body}</p>
          <div className="mt-9 flex flex-col justify-center gap-3 sm:flex-row">
            <ButtonLink cta={section.primary} variant="primary" />
            <ButtonLink cta={section.secondary} variant="secondary" />
          </div>
        </div>
      </div>
    </section>
  );
}
