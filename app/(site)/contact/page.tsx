import Link from "next/link";
import { buttonClass } from "@/components/landing/button-link";
import { MailIcon } from "@/components/landing/icons";
import { container } from "@/components/landing/section";
import { siteConfig } from "@/config/site";
import { getConfig } from "@/lib/server/config";
import { publicPageMetadata } from "@/lib/server/seo";

export const metadata = publicPageMetadata({
  title: "Contact",
  description: "Chat with the Hush team in New Zealand and Australia about Hush Cloud or an Enterprise deployment.",
  path: siteConfig.routes.contact,
});

/** /contact, "Chat with our team" (docs/product.md §2): the contact e-mail link ({email} = CONTACT_EMAIL). */
export default function ContactPage() {
  const email = getConfig().CONTACT_EMAIL;
  return (
    <div className="relative isolate flex flex-1 items-center">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(48rem_24rem_at_50%_-4rem,var(--color-brand-100),transparent_70%)]"
      />
      <div className={`${container} py-20 text-center sm:py-28`}>
        <h1 className="text-4xl font-semibold tracking-tight text-ink-950 sm:text-6xl">Chat with our team</h1>
        <p className="mx-auto mt-6 max-w-xl text-lg leading-8 text-ink-600">
          Questions about Hush, an Enterprise deployment for your organisation, or your account: write to us and a
          person from our team in New Zealand and Australia will reply.
        </p>
        <div className="mt-10 flex justify-center">
          <a href={`mailto:${email}`} className={buttonClass.primary}>
            <MailIcon className="h-5 w-5" />
            {email}
          </a>
        </div>
        <p className="mt-8 text-sm text-ink-600">
          Prefer to see it first?{" "}
          <Link href={siteConfig.routes.chat} className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
            Try Hush free
          </Link>
          , no account needed.
        </p>
      </div>
    </div>
  );
}
