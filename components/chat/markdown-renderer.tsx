"use client";

import "highlight.js/styles/github.css";
import "katex/dist/katex.min.css";
import type { Element, Text } from "hast";
import { memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeKatex from "rehype-katex";
import remarkGfm from "remark-gfm";
import remarkMath from "remark-math";
import { CodeBlock } from "./code-block";

function textOf(node: Element | Text): string {
  return node.type === "text" ? node.value : node.children.map((c) => (c.type === "element" || c.type === "text" ? textOf(c) : "")).join("");
}

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
  pre: ({ node }) => {
    const code = node?.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
    if (!code) return null;
    const classes = Array.isArray(code.properties.className) ? code.properties.className.map(String) : [];
    const language = classes.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? null;
    return <CodeBlock code={textOf(code).replace(/\n$/, "")} language={language} />;
  },
};

const remarkPlugins = [remarkGfm, remarkMath];
const rehypePlugins = [rehypeKatex];

/**
 * One Markdown block rendered: GitHub-flavoured Markdown, math by KaTeX (CSS and fonts bundled and served
 * from our origin), code blocks with a label and a copy button. Loaded on demand by ./markdown.tsx.
 */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
});

export default MarkdownBlock;
