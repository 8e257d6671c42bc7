import type { LandingContent } from "@/content/landing";
import { ChipIcon, EyeOffIcon, KeyIcon } from "./icons";
import { container } from "./section";

const icons = [KeyIcon, EyeOffIcon, ChipIcon];

/** "Why Hush" (docs/product.md §2 "Why the product"): the reasons, each tied to the mechanism behind it. */
export function Why({ section }: { section: LandingContent["why"] }) {
  return (
    <section aria-labelledby="why-title" className="py-20 sm:py-28">
      <div className={`${container} grid gap-12 lg:grid-cols-[2fr_3fr] lg:gap-20`}>
        <div>
          <h2 id="why-title" className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">
            {section.title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-ink-600">{section.lead}</p>
        </div>
        <ul className="space-y-8">
          {section.points.map((p, i) => {
            const Icon = icons[i % icons.length] ?? KeyIcon;
            return (
              <li key={p.title} className="flex gap-5">
                <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl border border-ink-200 bg-white text-brand-700 shadow-sm">
                  <Icon className="h-5 w-5" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-ink-950">{p.title}</h3>
                  <p className="mt-1.5 leading-7 text-ink-600">{p.body}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
