import type { LandingContent } from "@/content/landing";
import { IndustrySelector } from "./industry-selector";
import { container, SectionHeader } from "./section";

/** The industry section of docs/product.md §2; the selector is the page's only interactive island besides the menu. */
export function Industries({ section }: { section: LandingContent["industries"] }) {
  return (
    <section aria-labelledby="industries-title" className="py-20 sm:py-28">
      <div className={container}>
        <SectionHeader id="industries-title" title={section.title} lead={section.lead} />
        <div className="mt-10">
          <IndustrySelector industries={section.items} emptyHint={section.emptyHint} />
        </div>
      </div>
    </section>
  );
}
