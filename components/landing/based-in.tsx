import type { LandingContent } from "@/content/landing";
import { MapPinIcon } from "./icons";
import { container } from "./section";

/** "Based in New Zealand and Australia" (docs/product.md §1 and §2). */
export function BasedIn({ section }: { section: LandingContent["basedIn"] }) {
  return (
    <section aria-labelledby="based-title" className="py-20 sm:py-28">
      <div className={`${container} grid items-center gap-10 md:grid-cols-[3fr_2fr] md:gap-16`}>
        <div>
          <h2 id="based-title" className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">
            {section.title}
          </h2>
          <p className="mt-4 max-w-xl text-lg leading-8 text-ink-600">{section.body}</p>
        </div>
        <ul className="flex flex-col gap-3">
          {section.places.map((place) => (
            <li key={place} className="flex items-center gap-3 rounded-xl border border-ink-200 bg-white px-5 py-4 font-medium text-ink-900 shadow-sm">
              <MapPinIcon className="h-5 w-5 text-brand-600" />
              {place}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
