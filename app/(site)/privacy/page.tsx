import Link from "next/link";
import { connection } from "next/server";
import { container } from "@/components/landing/section";
import { siteConfig } from "@/config/site";
import { confidentialServerNote, privacyIntro, privacySections, providersSection } from "@/content/privacy";
import { modelPrivacyLines } from "@/lib/server/llm/confidential-models";
import { modelProviders } from "@/lib/server/llm";
import { publicPageMetadata } from "@/lib/server/seo";

export const metadata = publicPageMetadata({
  title: "Privacy",
  description: "What Hush can see: which provider answers each model and what it keeps, what passes through our servers, and what is stored.",
  path: siteConfig.routes.privacy,
});

/** A table cell from sm up; on a phone a labelled line of the model's card. */
const cardCell =
  "px-4 py-3 max-sm:block max-sm:px-0 max-sm:pb-0 max-sm:pt-3 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:uppercase max-sm:before:tracking-wide max-sm:before:text-ink-500 max-sm:before:content-[attr(data-label)]";

/** Rendered per request: a page built with other LLM settings than the server has would name the wrong provider. */
export default async function PrivacyPage() {
  await connection();
  const providers = modelProviders();
  const privacy = new Map(modelPrivacyLines().map((p) => [p.code, p]));
  const anyConfidential = [...privacy.values()].some((p) => p.confidential);
  return (
    <div className={`${container} py-16 sm:py-24`}>
      <article className="mx-auto max-w-3xl">
        <header className="border-b border-ink-100 pb-10">
          <h1 className="text-4xl font-semibold tracking-tight text-ink-950 sm:text-5xl">What Hush can see</h1>
          <p className="mt-6 text-lg leading-8 text-ink-600">{privacyIntro}</p>
        </header>

        <section id={providersSection.id} aria-labelledby="providers-title" className="mt-12 scroll-mt-24">
          <h2 id="providers-title" className="text-2xl font-semibold tracking-tight text-ink-950">
            {providersSection.title}
          </h2>
          <p className="mt-4 leading-7 text-ink-700">{providersSection.lead}</p>
          {/* On a phone each model is a card: four columns do not fit. */}
          <div className="mt-6 rounded-2xl border border-ink-200 sm:overflow-hidden max-sm:border-0">
            <table className="w-full text-left text-sm max-sm:block" data-testid="provider-table">
              <caption className="sr-only">{providersSection.caption}</caption>
              <thead className="bg-ink-50 text-ink-700 max-sm:sr-only">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold">Model</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Provider</th>
                  <th scope="col" className="px-4 py-3 font-semibold">What the provider keeps</th>
                  <th scope="col" className="px-4 py-3 font-semibold">Who processes your messages</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-ink-100 text-ink-700 max-sm:block max-sm:space-y-4 max-sm:divide-y-0">
                {providers.map((p) => (
                  <tr key={p.code} className="max-sm:block max-sm:rounded-2xl max-sm:border max-sm:border-ink-200 max-sm:p-4">
                    <th scope="row" className="px-4 py-3 font-semibold text-ink-950 max-sm:block max-sm:p-0 max-sm:text-base">{p.title}</th>
                    <td className={cardCell} data-label="Provider">{p.providerName}</td>
                    <td className={cardCell} data-label="What the provider keeps">{p.retention ?? providersSection.retentionUnknown}</td>
                    <td className={cardCell} data-label="Who processes your messages" data-testid="model-privacy-line">{privacy.get(p.code)?.line}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        {privacySections.map((s) => (
          <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="mt-12 scroll-mt-24">
            <h2 id={`${s.id}-title`} className="text-2xl font-semibold tracking-tight text-ink-950">
              {s.title}
            </h2>
            {s.paragraphs.map((p) => (
              <p key={p} className="mt-4 leading-7 text-ink-700">
                {p}
              </p>
            ))}
            {s.id === "server" && anyConfidential && <p className="mt-4 leading-7 text-ink-700">{confidentialServerNote}</p>}
          </section>
        ))}

        <p className="mt-16 border-t border-ink-100 pt-8 text-ink-600">
          Questions about privacy?{" "}
          <Link href={siteConfig.routes.contact} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
            Contact us
          </Link>
          .
        </p>
      </article>
    </div>
  );
}
