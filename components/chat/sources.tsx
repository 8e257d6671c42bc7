"use client";

import type { ReadPageRecord, WebSearchRecord } from "@/lib/shared/search/record";
import { isLinkable, pageLabel, SEARCH_BLOCKED_LINE, SEARCH_FAILED_LINE, SEARCH_OVER_QUOTA_LINE, sourceDomain } from "@/lib/shared/search/text";
import { PERSONAL_DATA_LABEL } from "@/lib/shared/search/personal-data";
import { AnswerStep } from "./answer-step";

/**
 * Under a searched answer: why a search did not run, the numbered Sources (nothing is fetched from their
 * origins), every query exactly as sent and who ran it, the pages read and the queries held back.
 */
export function Sources({ search }: { search: WebSearchRecord }) {
  const line =
    search.status === "failed" ? SEARCH_FAILED_LINE : search.status === "blocked" ? SEARCH_BLOCKED_LINE : search.status === "over_quota" ? SEARCH_OVER_QUOTA_LINE : null;
  const engine = engineText(search.via, search.engine);
  return (
    <div data-testid="web-search" className="mt-3 space-y-2 text-sm">
      {line && (
        <p role="status" data-testid="web-search-status" className="text-ink-600">
          {line}
        </p>
      )}
      {search.sources.length > 0 && (
        <section aria-label="Sources" data-testid="sources">
          <h3 className="font-medium text-ink-800">Sources</h3>
          <ol className="mt-1 space-y-1">
            {search.sources.map((s, i) => (
              <li key={`${i}-${s.url}`} className="flex gap-2">
                <span className="text-ink-500">[{i + 1}]</span>
                {isLinkable(s.url) ? (
                  <a href={s.url} target="_blank" rel="noopener noreferrer" referrerPolicy="no-referrer" className="min-w-0 truncate text-brand-700 hover:underline">
                    {s.title}
                  </a>
                ) : (
                  <span className="min-w-0 truncate">{s.title}</span>
                )}
                <span className="shrink-0 text-ink-500">{sourceDomain(s.url)}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      {search.queries.length > 0 && (
        <AnswerStep
          title={<span data-testid="search-disclosure">Searched the web for: {quoted(search.queries)} ({engine})</span>}
          failed={search.status === "failed"}
          sent={
            <ul className="space-y-0.5">
              {search.queries.map((q, i) => (
                <li key={i}>
                  “{q}” ({engine})
                </li>
              ))}
            </ul>
          }
          cameBack={
            search.sources.length > 0 ? (
              <ol className="space-y-0.5">
                {search.sources.map((s, i) => (
                  <li key={`${i}-${s.url}`}>
                    [{i + 1}] {s.title} <span className="text-ink-400">{s.url}</span>
                  </li>
                ))}
              </ol>
            ) : search.status === "failed" ? (
              "Nothing: the search engine did not answer."
            ) : (
              "No results."
            )
          }
        />
      )}
      {search.pages && search.pages.length > 0 && <PagesRead pages={search.pages} via={search.via} engine={search.engine} />}
      {search.held?.map((h, i) => (
        <p key={`held-${i}`} data-testid="search-held" className="text-xs text-ink-500">
          Not sent: “{h.query}”. It looked like it held {PERSONAL_DATA_LABEL[h.kind]} your message did not ask to search for.
        </p>
      ))}
    </div>
  );
}

/** The pages read for an answer (docs/issues.md #51), and those asked for but not read. */
function PagesRead({ pages, via, engine }: { pages: readonly ReadPageRecord[]; via: WebSearchRecord["via"]; engine: string }) {
  // A page read twice is listed once.
  const read = pages.filter((p, i) => p.status === "ok" && pages.findIndex((q) => q.status === "ok" && q.url === p.url) === i);
  const reader = via === "enclave" ? `inside the secure enclave at ${engine}` : "by Hush's server";
  return (
    <div data-testid="read-disclosure" className="space-y-0.5 text-xs text-ink-500">
      {read.length > 0 && (
        <p>
          Read:{" "}
          {read.map((p, i) => (
            <span key={`${i}-${p.url}`}>
              {i > 0 && ", "}
              {isLinkable(p.url) ? (
                <a href={p.url} target="_blank" rel="noreferrer noopener" referrerPolicy="no-referrer" data-testid="read-page-link" className="break-all text-brand-700 hover:underline">
                  {pageLabel(p.url)}
                </a>
              ) : (
                <span className="break-all">{pageLabel(p.url)}</span>
              )}
            </span>
          ))}{" "}
          ({reader})
        </p>
      )}
      {pages.map((p, i) =>
        p.status === "ok" ? null : (
          <p key={`not-${i}-${p.url}`} data-testid="read-page-not-read" className="break-all">
            {p.status === "refused" ? `Not read: ${pageLabel(p.url)} (not allowed).` : `Could not read: ${pageLabel(p.url)}.`}
          </p>
        ),
      )}
    </div>
  );
}

function engineText(via: WebSearchRecord["via"], engine: string): string {
  return via === "enclave" ? `inside the secure enclave at ${engine}` : `by SearXNG at ${engine}`;
}

const quoted = (queries: readonly string[]) => queries.map((q) => `“${q}”`).join(", ");

/** While a search step runs: its queries exactly as sent and who runs them. */
export function SearchingLine({ queries, engine }: { queries: readonly string[]; engine: string }) {
  return (
    <p role="status" data-testid="web-search-running" className="text-xs text-ink-500">
      Searching the web for: {quoted(queries)} ({engineText("searxng", engine)})…
    </p>
  );
}

/** While Hush's server reads a page for the model (docs/issues.md #51). */
export function ReadingLine({ page }: { page: string }) {
  return (
    <p role="status" data-testid="read-page-running" className="text-xs text-ink-500">
      Reading {page}…
    </p>
  );
}
