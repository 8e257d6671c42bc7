"use client";

import "highlight.js/styles/github.css";
import "katex/dist/katex.min.css";
import type { Element, Text } from "hast";
import { memo, type ReactElement } from "react";
import Markdown, { type Components } from "react-markdown";
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
 * Parsed blocks by their text: a finished answer is shown by a new component, which would parse every block
 * again in one long task. Bounded: the oldest entries go first.
 */
const parsed = new Map<string, ReactElement>();
const PARSED_MAX = 2_000;

/** Forget every parsed block: decrypted answers should not outlive the vault's lock. */
export function clearParsed(): void {
  parsed.clear();
}

function parse(text: string): ReactElement {
  const hit = parsed.get(text);
  if (hit) return hit;
  // react-markdown's synchronous Markdown() is a pure function of its options, so its result can be reused.
  const element = Markdown({ children: text, remarkPlugins, rehypePlugins, components, skipHtml: true }) as ReactElement;
  parsed.set(text, element);
  if (parsed.size > PARSED_MAX) parsed.delete(parsed.keys().next().value!);
  return element;
}

/** One Markdown block: GFM, math by KaTeX (served from our origin), code blocks with a copy button. */
const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return parse(text);
});

export default MarkdownBlock;
