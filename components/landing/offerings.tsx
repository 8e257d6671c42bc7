import type { LandingContent, Offering } from "@/content/landing";
import { ButtonLink } from "./button-link";
import { BuildingIcon, CheckIcon, CloudIcon } from "./icons";
import { container, SectionHeader } from "./section";

/** "Private and secure": the Cloud card (to /chat) and the Enterprise card (to /contact) of docs/product.md §2. */
export function Offerings({ section }: { section: LandingContent["privateAndSecure"] }) {
  return (
    <section aria-labelledby="private-title" className="border-y border-ink-100 bg-ink-50 py-20 sm:py-28">
      <div className={container}>
        <SectionHeader id="private-title" title={section.title} lead={section.lead} center />
        <div className="mx-auto mt-14 grid max-w-5xl gap-6 md:grid-cols-2">
          {section.offerings.map((o) => (
            <OfferingCard key={o.name} offering={o} />
          ))}
        </div>
      </div>
    </section>
  );
}

function OfferingCard({ offering: o }: { offering: Offering }) {
  const Icon = o.recommended ? CloudIcon : BuildingIcon;
  return (
    <article
      className={`relative flex flex-col rounded-2xl bg-white p-7 sm:p-9 ${
        o.recommended ? "border-2 border-brand-600 shadow-xl shadow-brand-900/10" : "border border-ink-200 shadow-sm"
      }`}
    >
      {o.recommended && (
        <p className="absolute -top-3.5 left-7 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold tracking-wide text-white sm:left-9">
          Recommended
        </p>
      )}
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
          <Icon className="h-5 w-5" />
        </span>
        <h3 className="text-2xl font-semibold tracking-tight text-ink-950">{o.name}</h3>
      </div>
      <p className="mt-4 text-sm font-semibold text-brand-700">{o.audience}</p>
      <p className="mt-2 text-base leading-7 text-ink-700">{o.summary}</p>
      <ul className="mt-6 flex-1 space-y-3 border-t border-ink-100 pt-6">
        {o.points.map((p) => (
          <li key={p} className="flex gap-3 text-sm leading-6 text-ink-700">
            <CheckIcon className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
            {p}
          </li>
        ))}
      </ul>
      <ButtonLink cta={o.cta} variant={o.recommended ? "primary" : "secondary"} className="mt-8 w-full" />
    </article>
  );
}
