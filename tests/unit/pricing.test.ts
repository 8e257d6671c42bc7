import { describe, expect, it } from "vitest";
import {
  BASE_PRICES_MINOR,
  perMonthMinor,
  perMonthVersusMonthly,
  currencyForCountry,
  formatAmount,
  PLAN_MONTHS,
  PLAN_OPTIONS,
  planPrice,
  savingFrom,
  savingPercent,
  type Currency,
} from "@/config/pricing";

/** docs/product.md §9 prices: all 12 cells, the launch price (25%), the currency choice and every saving. */

const SPEC: Record<Currency, [string, string, string, string]> = {
  USD: ["19.99", "299.99", "599.99", "1199.99"],
  NZD: ["36.99", "519.99", "1029.99", "2049.99"],
  AUD: ["33.99", "469.99", "939.99", "1869.99"],
};
// 0.25 × base, 2 decimals (e.g. 19.99 × 0.25 = 4.9975 -> 5.00).
const LAUNCH: Record<Currency, [string, string, string, string]> = {
  USD: ["5.00", "75.00", "150.00", "300.00"],
  NZD: ["9.25", "130.00", "257.50", "512.50"],
  AUD: ["8.50", "117.50", "235.00", "467.50"],
};

describe("prices (docs/product.md §9)", () => {
  for (const currency of ["USD", "NZD", "AUD"] as const) {
    for (const option of PLAN_OPTIONS) {
      it(`${currency} option ${option}: base ${SPEC[currency][option - 1]}, launch ${LAUNCH[currency][option - 1]}`, () => {
        const price = planPrice(currency, option);
        expect(formatAmount(price.baseMinor)).toBe(SPEC[currency][option - 1]);
        expect(formatAmount(price.launchMinor)).toBe(LAUNCH[currency][option - 1]);
        expect(price.launchMinor).toBe(Math.round(Number(SPEC[currency][option - 1]) * 100 * 0.25));
        expect(price.currency).toBe(currency);
      });
    }
  }

  it("durations are 1, 3, 6 and 14 months", () => {
    expect(PLAN_OPTIONS.map((o) => PLAN_MONTHS[o])).toEqual([1, 3, 6, 14]);
  });

  it("NZ pays NZD, AU pays AUD, anything else (or nothing) USD", () => {
    expect(currencyForCountry("NZ")).toBe("NZD");
    expect(currencyForCountry("nz")).toBe("NZD");
    expect(currencyForCountry("AU")).toBe("AUD");
    for (const other of ["US", "GB", "DE", "XX", "", null, undefined]) expect(currencyForCountry(other)).toBe("USD");
  });
});

describe("saving per seat (docs/product.md §9)", () => {
  it("is 0 for option 1", () => {
    for (const c of ["USD", "NZD", "AUD"] as const) expect(savingPercent(c, 1)).toBe(0);
  });

  it("is the rounded gap to the one-month price, shown as 0 where the spec's figures make it negative", () => {
    for (const c of ["USD", "NZD", "AUD"] as const) {
      for (const o of [2, 3, 4] as const) {
        const monthly = BASE_PRICES_MINOR[c][1];
        const raw = Math.round(((monthly - BASE_PRICES_MINOR[c][o] / PLAN_MONTHS[o]) / monthly) * 100);
        // Every longer option costs more per month than one month (e.g. USD 299.99 / 3 = 100.00 > 19.99).
        expect(raw).toBeLessThan(0);
        expect(savingPercent(c, o)).toBe(0);
        expect(planPrice(c, o).savingPercent).toBe(0);
      }
    }
  });

  it("shows a positive gap as a rounded percentage of the one-month price", () => {
    expect(savingFrom(2000, 4500, 3)).toBe(25); // 15.00 a month against 20.00
    expect(savingFrom(1999, 4999, 3)).toBe(17); // 16.66 against 19.99: 16.6% -> 17
    expect(savingFrom(2000, 6000, 3)).toBe(0);
    expect(savingFrom(2000, 9000, 3)).toBe(0); // dearer: no negative saving
  });
});

describe("per-month equivalent (docs/issues.md #9, pricing honesty)", () => {
  it("spreads the launch price over the option's months, to the cent", () => {
    // USD option 2: round(29999 × 0.25) = 7500 for 3 months = 2500 a month.
    expect(perMonthMinor(planPrice("USD", 2))).toBe(2500);
    // USD option 4: 30000 for 14 months = 2142.86 -> 2143.
    expect(perMonthMinor(planPrice("USD", 4))).toBe(2143);
    expect(perMonthMinor(planPrice("NZD", 1))).toBe(planPrice("NZD", 1).launchMinor);
    expect(perMonthMinor({ launchMinor: 1000, months: 3 })).toBe(333);
  });

  it("says every longer option costs more per month than one month with the spec's figures", () => {
    for (const c of ["USD", "NZD", "AUD"] as const) {
      expect(perMonthVersusMonthly(planPrice(c, 1))).toBe("same");
      for (const o of [2, 3, 4] as const) expect(perMonthVersusMonthly(planPrice(c, o))).toBe("more");
    }
  });
});
