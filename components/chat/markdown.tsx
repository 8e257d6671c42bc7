"use client";

import "highlight.js/styles/github.css";
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

// Raw HTML is never rendered (no rehype-raw, and skipHtml drops it). Images are shown as links,
// never loaded: a model-written image URL would otherwise make the browser call a third party.
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
  img: ({ src, alt }) => (
    <a href={typeof src === "string" ? src : undefined} target="_blank" rel="noopener noreferrer nofollow">
      {alt || "image link"}
    </a>
  ),
};

/** GitHub-flavoured markdown with highlighted code blocks, for assistant messages. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="prose prose-sm max-w-none prose-ink break-words prose-pre:bg-ink-50 prose-pre:text-ink-900 prose-pre:border prose-pre:border-ink-100 prose-code:before:content-none prose-code:after:content-none sm:prose-base">
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeHighlight]} components={components} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
});
