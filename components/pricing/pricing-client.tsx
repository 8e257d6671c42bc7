"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { apiFetch, serverMessage } from "@/lib/browser/api/client";
import { AppError } from "@/lib/shared/errors";
import { formatLimit, PROJECT_FILES_LIMIT_BYTES } from "@/lib/shared/projects/knowledge-limits";
import {
  currencyForCountry,
  formatAmount,
  LAUNCH_HEADLINE,
  periodLabel,
  perMonthMinor,
  perMonthVersusMonthly,
  PLAN_MONTHS,
  PLAN_OPTIONS,
  planPrice,
  type Currency,
  type PlanOption,
} from "@/config/pricing";

/** docs/product.md §8 checkout texts. */
const CHECKOUT_REDIRECT_ERROR = "An error occurred during checkout. Please try again.";
const CHECKOUT_FAILED = "Failed to initiate checkout. Please try again later.";
const PAYMENTS_OFF = "Payments are not configured on this server, so Pro cannot be bought here. Contact the administrator.";

const FREE_BULLETS = ["Limited private messaging and file uploads", "Limited message history", "Basic model", `Project files: ${formatLimit(PROJECT_FILES_LIMIT_BYTES.Free)} per project`];
const PRO_BULLETS = [
  "Unlimited private messaging and file uploads",
  "Fully encrypted message history",
  "Pro model with more compute",
  `Project files: ${formatLimit(PROJECT_FILES_LIMIT_BYTES.Pro)} per project`,
];

/** The /pricing cards (docs/product.md §2, §4, §9) for `country` (ISO code). */
export function PricingClient({ country, proDailyLimit }: { country: string; /** QUOTA_PRO_PER_DAY (docs/product.md §10.2). */ proDailyLimit: number }) {
  const router = useRouter();
  const [option, setOption] = useState<PlanOption>(1);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const groupId = useId();

  // aria-busy="false": the prices are complete (tests and assistive technology wait on it).
  const region = (content: React.ReactNode) => (
    <div aria-busy="false" data-testid="pricing" className="min-h-[32rem]">
      {content}
    </div>
  );

  const price = planPrice(currencyForCountry(country), option);

  const getPro = async () => {
    setError(null);
    setPending(true);
    try {
      let data;
      try {
        data = await apiFetch("createCheckoutSession", { body: { plan: option } });
      } catch (e) {
        const status = e instanceof AppError ? e.status : 0;
        if (status === 401) {
          router.push("/signup");
          return;
        }
        if (status === 503) throw new Error(PAYMENTS_OFF);
        if (status === 409 && serverMessage(e)) throw new Error(serverMessage(e)!);
        throw new Error(CHECKOUT_FAILED);
      }
      let target: URL;
      try {
        target = new URL(data.url);
        if (target.protocol !== "https:" && target.protocol !== "http:") throw new Error("bad scheme");
      } catch {
        window.alert(CHECKOUT_REDIRECT_ERROR);
        return;
      }
      window.location.assign(target.toString());
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : CHECKOUT_FAILED);
    } finally {
      setPending(false);
    }
  };

  return region(
    <>
      <div className="text-center">
        <p className="inline-flex rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-800">Pro</p>
        <h2 className="mt-4 text-4xl font-semibold tracking-tight text-ink-950 sm:text-5xl">{LAUNCH_HEADLINE}</h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-ink-600">A stronger model and unlimited private chat, at launch prices.</p>
      </div>

      <BillingPeriod labelId={groupId} currency={price.currency} option={option} onChange={setOption} />

      <div className="mx-auto mt-10 grid max-w-4xl gap-6 md:grid-cols-2">
        <FreeCard currency={price.currency} />

        <section aria-labelledby="pro-h" data-testid="pro-card" className="flex flex-col rounded-2xl border-2 border-brand-600 bg-white p-8 shadow-lg shadow-brand-900/10">
          <h3 id="pro-h" className="text-lg font-semibold text-ink-950">
            Pro
          </h3>
          <p className="mt-4 flex flex-wrap items-baseline gap-x-2">
            <span className="sr-only">Was</span>
            <s data-testid="base-price" className="text-xl text-ink-500">
              {formatAmount(price.baseMinor)}
            </s>
            <span className="sr-only">now</span>
            <span data-testid="launch-price" className="text-4xl font-semibold tracking-tight text-ink-950">
              {formatAmount(price.launchMinor)}
            </span>
            <span data-testid="price-period" className="text-base font-medium text-ink-600">
              {price.currency} per {periodLabel(price.months)}
            </span>
          </p>
          {price.months > 1 && (
            // The longer options cost more per month than one month.
            <p data-testid="per-month" className="mt-2 text-sm text-ink-700">
              That is {formatAmount(perMonthMinor(price))} {price.currency} a month
              {perMonthVersusMonthly(price) === "more"
                ? `, more than the 1-month plan (${formatAmount(planPrice(price.currency, 1).launchMinor)} ${price.currency} a month).`
                : perMonthVersusMonthly(price) === "less"
                  ? `, less than the 1-month plan (${formatAmount(planPrice(price.currency, 1).launchMinor)} ${price.currency} a month).`
                  : ", the same as the 1-month plan."}
            </p>
          )}
          <ul className="mt-6 flex-1 space-y-3 text-sm text-ink-700">
            {PRO_BULLETS.map((b) => (
              <li key={b} className="flex gap-2">
                <Check /> {b}
              </li>
            ))}
          </ul>
          {/* "Unlimited" (docs/product.md §2) has a fair-use ceiling (lib/server/quota.ts); say which. */}
          <p data-testid="fair-use" className="mt-4 text-xs text-ink-600">
            Unlimited within fair use: up to {proDailyLimit.toLocaleString("en-US")} messages a day (reset at midnight UTC), to keep the
            service fast for everyone.
          </p>
          <button
            type="button"
            onClick={() => void getPro()}
            disabled={pending}
            className="mt-8 inline-flex items-center justify-center rounded-xl bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60"
          >
            {pending ? "Opening checkout…" : "Get Pro"}
          </button>
          {error && (
            <p role="alert" data-testid="checkout-error" className="mt-3 text-sm text-red-700">
              {error}
            </p>
          )}
        </section>
      </div>

      <p className="mt-10 text-center text-sm text-ink-600">
        <Link href="/contact" className="font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800">
          Need more capabilities for your business? Contact us
        </Link>
      </p>
    </>,
  );
}

function FreeCard({ currency }: { currency: string }) {
  return (
    <section aria-labelledby="free-h" data-testid="free-card" className="hidden flex-col rounded-2xl border border-ink-200 bg-white p-8 md:flex">
      <h3 id="free-h" className="text-lg font-semibold text-ink-950">
        Free
      </h3>
      <p className="mt-4 text-4xl font-semibold tracking-tight text-ink-950">
        0<span className="ml-1 text-base font-medium text-ink-600">{currency}</span>
      </p>
      <ul className="mt-6 flex-1 space-y-3 text-sm text-ink-700">
        {FREE_BULLETS.map((b) => (
          <li key={b} className="flex gap-2">
            <Check /> {b}
          </li>
        ))}
      </ul>
      <Link
        href="/chat"
        className="mt-8 inline-flex items-center justify-center rounded-xl border border-ink-200 bg-white px-5 py-3 text-base font-semibold text-ink-900 hover:border-ink-300 hover:bg-ink-50"
      >
        Try Free
      </Link>
    </section>
  );
}

/** The duration choice (docs/product.md §9). */
function BillingPeriod({ labelId, currency, option, onChange }: { labelId: string; currency: Currency; option: PlanOption; onChange: (o: PlanOption) => void }) {
  return (
    <fieldset className="mx-auto mt-10 max-w-xl">
      <legend id={labelId} className="mb-3 w-full text-center text-sm font-semibold text-ink-700">
        Billing period
      </legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {PLAN_OPTIONS.map((o) => {
          const saving = planPrice(currency, o).savingPercent;
          return (
            <label
              key={o}
              className={`flex cursor-pointer flex-col items-center rounded-xl border px-3 py-2.5 text-sm font-medium has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                o === option ? "border-brand-600 bg-brand-50 text-brand-900" : "border-ink-200 bg-white text-ink-800 hover:border-ink-300"
              }`}
            >
              <input type="radio" name="duration" value={o} checked={o === option} onChange={() => onChange(o)} className="sr-only" />
              <span>{PLAN_MONTHS[o] === 1 ? "1 month" : `${PLAN_MONTHS[o]} months`}</span>
              {saving > 0 && <span className="text-xs text-brand-700">Save {saving}%</span>}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="mt-0.5 h-4 w-4 shrink-0 text-brand-600" fill="none" stroke="currentColor" strokeWidth="2.5">
      <path d="M5 12l5 5L20 7" />
    </svg>
  );
}
