"use client";

import { useEffect, useState } from "react";
import { CopyButton } from "./copy-button";
import { highlight } from "./highlight";

/** A fenced code block with its label and copy button, highlighted once its grammar has loaded. */
export function CodeBlock({ code, language }: { code: string; language: string | null }) {
  const [html, setHtml] = useState<{ code: string; html: string } | null>(null);
  useEffect(() => {
    if (!language) return;
    let live = true;
    highlight(code, language)
      .then((out) => {
        if (live && out !== null) setHtml({ code, html: out });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [code, language]);

  return (
    <div className="not-prose my-4 overflow-hidden rounded-xl border border-ink-200 bg-white" data-testid="code-block">
      <div className="flex items-center justify-between border-b border-ink-200 bg-ink-50 px-3 py-1 text-xs text-ink-700">
        <span className="font-mono" data-testid="code-language">
          {language ?? "text"}
        </span>
        <CopyButton
          text={() => code}
          label="Copy code"
          className="inline-flex h-7 items-center gap-1 rounded-md px-2 text-ink-700 hover:bg-ink-200 hover:text-ink-900"
        />
      </div>
      <pre className="overflow-x-auto p-3 text-sm leading-relaxed text-ink-900">
        {html && code.startsWith(html.code) ? (
          // While a block streams, the part highlighted so far stays highlighted; the rest follows as text.
          <code className="hljs !bg-transparent !p-0">
            <span dangerouslySetInnerHTML={{ __html: html.html }} />
            {code.slice(html.code.length)}
          </code>
        ) : (
          <code>{code}</code>
        )}
      </pre>
    </div>
  );
}
