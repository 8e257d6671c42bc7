"use client";

import type { KnowledgeSource } from "./types";

/** The project files an answer was given (docs/issues.md #41); not linked, since the files live sealed in the vault. */
export function FileSources({ sources }: { sources: KnowledgeSource[] }) {
  return (
    <section aria-label="Sources from project files" data-testid="file-sources" className="mt-3 text-sm">
      <h3 className="font-medium text-ink-800">Sources</h3>
      <ol className="mt-1 space-y-1">
        {sources.map((s, i) => (
          <li key={`${s.file}-${s.section}`} className="flex min-w-0 gap-2">
            <span className="text-ink-500">[{i + 1}]</span>
            <span className="min-w-0 truncate text-ink-800">{s.file}</span>
            <span className="shrink-0 text-ink-500">{s.section}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
