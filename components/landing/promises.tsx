import Link from "next/link";
import type { LandingContent } from "@/content/landing";
import { CheckIcon } from "./icons";
import { container } from "./section";

const spans = ["lg:col-span-2", "lg:col-span-2", "lg:col-span-2", "lg:col-span-3", "sm:col-span-2 lg:col-span-3"];

/** The five promises of docs/product.md §1, on a dark band so they read as the page's core commitment. */
export function Promises({ section }: { section: LandingContent["promises"] }) {
  return (
    <section aria-labelledby="promises-title" className="bg-ink-950 py-20 text-white sm:py-28">
      <div className={container}>
        <div className="max-w-2xl">
          <h2 id="promises-title" className="text-3xl font-semibold tracking-tight sm:text-4xl">
            {section.title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-ink-300">{section.lead}</p>
        </div>
        <ol className="mt-14 grid gap-px overflow-hidden rounded-2xl border border-white/10 bg-white/10 sm:grid-cols-2 lg:grid-cols-6">
          {section.items.map((item, i) => (
            // Three tiles over two on wide screens, so five promises fill the grid without a gap.
            <li key={item.title} className={`bg-ink-950 p-7 sm:p-8 ${spans[i] ?? ""}`}>
              <span className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-500/15 text-brand-300">
                <CheckIcon className="h-5 w-5" />
              </span>
              <h3 className="mt-5 text-lg font-semibold">{item.title}</h3>
              <p className="mt-2 leading-7 text-ink-300">{item.body}</p>
            </li>
          ))}
        </ol>
        <p className="mt-10">
          <Link href={section.more.href} className="font-semibold text-brand-300 underline underline-offset-4 hover:text-white">
            {section.more.label}
          </Link>
        </p>
      </div>
    </section>
  );
}
