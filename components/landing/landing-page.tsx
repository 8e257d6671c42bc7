import { landingContent } from "@/content/landing";
import { BasedIn } from "./based-in";
import { ClosingCta } from "./closing-cta";
import { CompareTable } from "./compare-table";
import { FeaturedBadge } from "./featured-badge";
import { Hero } from "./hero";
import { Industries } from "./industries";
import { Offerings } from "./offerings";
import { Promises } from "./promises";
import { Why } from "./why";

/**
 * The landing page body, sections in the order of docs/product.md §2. Rendered at / and, with status 404, for any
 * unknown path (app/global-not-found.tsx).
 */
export function LandingPage() {
  const c = landingContent;
  return (
    <>
      <Hero hero={c.hero} />
      <FeaturedBadge featured={c.featured} />
      <div className="mt-20 sm:mt-28">
        <Offerings section={c.privateAndSecure} />
      </div>
      <Why section={c.why} />
      <Promises section={c.promises} />
      <Industries section={c.industries} />
      <CompareTable section={c.compare} />
      <BasedIn section={c.basedIn} />
      <ClosingCta section={c.closing} />
    </>
  );
}
