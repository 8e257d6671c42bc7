import Link from "next/link";
import { siteConfig } from "@/config/site";

/** Placeholder landing page; the full page of spec §2 is its own issue. */
export default function HomePage() {
  return (
    <section className="mx-auto flex max-w-3xl flex-1 flex-col items-center justify-center gap-6 px-4 py-24 text-center">
      <h1 className="text-5xl font-bold tracking-tight text-ink-950">Chat Freely</h1>
      <p className="text-lg text-ink-600">{siteConfig.description}</p>
      <div className="flex gap-3">
        <Link href={siteConfig.routes.chat} className="rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700">
          Try for free
        </Link>
        <Link href={siteConfig.routes.contact} className="rounded-lg border border-ink-200 px-5 py-3 font-semibold text-ink-800 hover:bg-ink-50">
          Contact us
        </Link>
      </div>
    </section>
  );
}
