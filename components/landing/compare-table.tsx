import { compareColumns, type CompareValue, type LandingContent } from "@/content/landing";
import { CheckIcon, CrossIcon } from "./icons";
import { container, SectionHeader } from "./section";

/** The Compare table of docs/product.md §2, reproduced exactly; the Cloud column is highlighted as recommended. */
export function CompareTable({ section }: { section: LandingContent["compare"] }) {
  return (
    <section aria-labelledby="compare-title" className="border-y border-ink-100 bg-ink-50 py-20 sm:py-28">
      <div className={container}>
        <SectionHeader id="compare-title" title={section.title} lead={section.lead} center />
        <div className="mx-auto mt-12 max-w-4xl overflow-hidden rounded-2xl border border-ink-200 bg-white shadow-sm">
          <table className="w-full table-fixed text-left text-sm sm:text-base">
            <caption className="sr-only">{section.caption}</caption>
            <thead>
              <tr className="border-b border-ink-200">
                <th scope="col" className="w-[28%] py-4 pl-3 pr-1 sm:px-6">
                  <span className="sr-only">Feature</span>
                </th>
                {compareColumns.map((c) => (
                  <th
                    key={c}
                    scope="col"
                    className={`px-1 py-4 text-center text-[13px] font-semibold sm:px-4 sm:text-base ${c === "Cloud" ? "bg-brand-50 text-brand-800" : "text-ink-950"}`}
                  >
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {section.rows.map((row) => (
                <tr key={row.label} className="border-b border-ink-100 last:border-0">
                  <th scope="row" className="py-4 pl-3 pr-1 font-medium text-ink-800 sm:px-6">
                    {row.label}
                  </th>
                  {compareColumns.map((c) => (
                    <td key={c} className={`px-1 py-4 text-center sm:px-4 ${c === "Cloud" ? "bg-brand-50" : ""}`}>
                      <CompareCell value={row.values[c]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

function CompareCell({ value }: { value: CompareValue }) {
  if (typeof value === "string") return <span className="font-medium text-ink-900">{value}</span>;
  return value ? (
    <span className="inline-flex items-center justify-center text-brand-700">
      <CheckIcon className="h-5 w-5" />
      <span className="sr-only">Yes</span>
    </span>
  ) : (
    <span className="inline-flex items-center justify-center text-ink-500">
      <CrossIcon className="h-5 w-5" />
      <span className="sr-only">No</span>
    </span>
  );
}
