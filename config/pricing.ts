/**
 * Prices of the Pro plan (docs/product.md §9), safe for the client bundle: one typed table used by /pricing, the
 * checkout session and the tests. Amounts are kept in minor units (cents) so no float ever decides a
 * charge; `formatAmount` renders them with 2 decimals.
 */

/** Currencies the product sells in (docs/product.md §9: USD by default, NZD for NZ, AUD for AU). */
export type Currency = "USD" | "NZD" | "AUD";

/** The duration options 1 to 4 of docs/product.md §9. */
export type PlanOption = 1 | 2 | 3 | 4;
export const PLAN_OPTIONS: readonly PlanOption[] = [1, 2, 3, 4];

/** Months in each option (docs/product.md §9: 1, 3, 6 and 14 months). */
export const PLAN_MONTHS: Readonly<Record<PlanOption, number>> = { 1: 1, 2: 3, 3: 6, 4: 14 };

/** Base prices in minor units, per option and currency (docs/product.md §9 table, before the launch discount). */
export const BASE_PRICES_MINOR: Readonly<Record<Currency, Readonly<Record<PlanOption, number>>>> = {
  USD: { 1: 1999, 2: 29999, 3: 59999, 4: 119999 },
  NZD: { 1: 3699, 2: 51999, 3: 102999, 4: 204999 },
  AUD: { 1: 3399, 2: 46999, 3: 93999, 4: 186999 },
};

/** docs/product.md §9: the displayed (and charged) price is 25% of the base price (launch 75% off). */
export const LAUNCH_PRICE_FACTOR = 0.25;
export const LAUNCH_HEADLINE = "Launch 75% Off";

/** docs/product.md §9: other countries use USD; the default country is US. */
export const DEFAULT_COUNTRY = "US";

/** The currency for an ISO 3166-1 alpha-2 country code (any case); anything unknown is USD. */
export function currencyForCountry(country: string | null | undefined): Currency {
  const code = (country ?? "").toUpperCase();
  return code === "NZ" ? "NZD" : code === "AU" ? "AUD" : "USD";
}

/** True for 1, 2, 3 or 4. */
export function isPlanOption(value: unknown): value is PlanOption {
  return value === 1 || value === 2 || value === 3 || value === 4;
}

/** What the Pro card shows and checkout charges for one option and currency. */
export interface PlanPrice {
  option: PlanOption;
  months: number;
  currency: Currency;
  /** Base price, minor units (struck through on the card). */
  baseMinor: number;
  /** Launch price = round(base × 0.25), minor units: charged once per `months`. */
  launchMinor: number;
  /** Saving per seat in whole percent, never negative (see `savingPercent`). */
  savingPercent: number;
}

/**
 * docs/product.md §9 "saving per seat percent: the rounded gap between the one-month price and the plan's
 * per-month price; 0 for option 1", as a percentage of the one-month price. The spec's own figures
 * make every longer option dearer per month than option 1 (e.g. USD 299.99 / 3 = 100.00 > 19.99), so
 * a negative gap is shown as no saving (0) rather than a negative one.
 */
export function savingPercent(currency: Currency, option: PlanOption): number {
  if (option === 1) return 0;
  return savingFrom(BASE_PRICES_MINOR[currency][1], BASE_PRICES_MINOR[currency][option], PLAN_MONTHS[option]);
}

/** Whole-percent saving of paying `totalMinor` for `months` against `monthlyMinor` a month; never negative. */
export function savingFrom(monthlyMinor: number, totalMinor: number, months: number): number {
  const gap = Math.round(((monthlyMinor - totalMinor / months) / monthlyMinor) * 100);
  return Math.max(0, gap);
}

/** The price of `option` in `currency` (docs/product.md §9). */
export function planPrice(currency: Currency, option: PlanOption): PlanPrice {
  const baseMinor = BASE_PRICES_MINOR[currency][option];
  return {
    option,
    months: PLAN_MONTHS[option],
    currency,
    baseMinor,
    launchMinor: Math.round(baseMinor * LAUNCH_PRICE_FACTOR),
    savingPercent: savingPercent(currency, option),
  };
}

/** Minor units as a 2-decimal amount, e.g. 1999 -> "19.99" (no currency symbol: the code is shown beside it). */
export function formatAmount(minor: number): string {
  return (minor / 100).toFixed(2);
}

/** "month" or "14 months": the period one payment covers. */
export function periodLabel(months: number): string {
  return months === 1 ? "month" : `${months} months`;
}

/**
 * The launch price of `price` spread over its months, in minor units rounded to the cent (docs/issues.md #9
 * "Pricing honesty": with docs/product.md §9's figures every longer option costs more per month than option 1,
 * so the card shows this beside the total). Display only: checkout charges `launchMinor`.
 */
export function perMonthMinor(price: Pick<PlanPrice, "launchMinor" | "months">): number {
  return Math.round(price.launchMinor / price.months);
}

/**
 * How the per-month equivalent of `price` compares with the one-month option's price in the same
 * currency: "more", "less" or "same" (to the cent).
 */
export function perMonthVersusMonthly(price: PlanPrice): "more" | "less" | "same" {
  const monthly = planPrice(price.currency, 1).launchMinor;
  const each = perMonthMinor(price);
  return each > monthly ? "more" : each < monthly ? "less" : "same";
}
