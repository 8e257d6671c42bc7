"use client";

import { lazy, memo, Suspense, useMemo } from "react";
import { splitBlocks } from "@/lib/browser/chat/markdown-blocks";

const loadRenderer = () => import("./markdown-renderer");
const MarkdownBlock = lazy(loadRenderer);

/** Start loading the Markdown renderer before the first answer needs it. */
export function preloadMarkdown() {
  void loadRenderer();
}

/** Drop the renderer's cache of parsed answers, e.g. when the vault locks. */
export function forgetRenderedMarkdown() {
  void loadRenderer().then((m) => m.clearParsed());
}

// Tailwind typography puts quotation marks around blockquotes: answers quote text as it is.
const PROSE =
  "prose prose-sm max-w-none prose-ink break-words sm:prose-base prose-code:before:content-none prose-code:after:content-none " +
  "prose-blockquote:font-normal prose-blockquote:not-italic [&_blockquote_p]:before:content-none [&_blockquote_p]:after:content-none";

/** An answer as Markdown, in memoized top-level blocks so a streaming answer re-parses only its last one. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className={PROSE}>
      <Suspense fallback={<p className="whitespace-pre-wrap">{text}</p>}>
        {blocks.map((block, i) => (
          <MarkdownBlock key={i} text={block} />
        ))}
      </Suspense>
    </div>
  );
});
