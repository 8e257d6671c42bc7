import Link from "next/link";
import { container } from "@/components/landing/section";
import { siteConfig } from "@/config/site";
import { termsIntro, termsSections } from "@/content/terms";
import { publicPageMetadata } from "@/lib/server/seo";

export const metadata = publicPageMetadata({
  title: "Terms of Service",
  description: "The terms for using Hush: your responsibilities, payment, privacy, liability and New Zealand law.",
  path: siteConfig.routes.terms,
});

/** /termsofservice (docs/product.md §2): the eleven sections of content/terms.ts, with a table of contents. */
export default function TermsPage() {
  return (
    <div className={`${container} py-16 sm:py-24`}>
      <article className="mx-auto max-w-3xl">
        <header className="border-b border-ink-100 pb-10">
          <h1 className="text-4xl font-semibold tracking-tight text-ink-950 sm:text-5xl">Terms of Service</h1>
          <p className="mt-6 text-lg leading-8 text-ink-600">{termsIntro}</p>
        </header>
        <nav aria-labelledby="terms-contents" className="mt-10 rounded-2xl border border-ink-200 bg-ink-50 p-6">
          <h2 id="terms-contents" className="text-sm font-semibold uppercase tracking-wider text-ink-700">
            Contents
          </h2>
          <ol className="mt-4 list-decimal gap-x-10 space-y-2 pl-5 text-sm text-ink-700 marker:text-ink-500 sm:columns-2">
            {termsSections.map((s) => (
              <li key={s.id} className="break-inside-avoid">
                <a href={`#${s.id}`} className="hover:text-ink-950 hover:underline">
                  {s.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {termsSections.map((s, i) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="mt-12 scroll-mt-24">
            <h2 id={`${s.id}-title`} className="text-2xl font-semibold tracking-tight text-ink-950">
              <span className="mr-2 text-ink-500">{i + 1}.</span>
              {s.title}
            </h2>
            {s.paragraphs.map((p) => (
              <p key={p} className="mt-4 leading-7 text-ink-700">
                {p}
              </p>
            ))}
          </section>
        ))}
        <p className="mt-16 border-t border-ink-100 pt-8 text-ink-600">
          Questions about these terms?{" "}
          <Link href={siteConfig.routes.contact} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
            Contact us
          </Link>
          .
        </p>
      </article>
    </div>
  );
}
