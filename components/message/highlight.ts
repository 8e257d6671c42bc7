"use client";

import type { HLJSApi, LanguageFn } from "highlight.js";

// highlight.js with each language loaded when an answer first uses it; unknown languages stay unhighlighted.
const LOADERS: Record<string, () => Promise<{ default: LanguageFn }>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  shell: () => import("highlight.js/lib/languages/shell"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

const ALIASES: Record<string, string> = {
  js: "javascript", jsx: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript", py: "python",
  sh: "bash", zsh: "bash", console: "shell", html: "xml", svg: "xml", yml: "yaml", md: "markdown",
  "c++": "cpp", cs: "csharp", rs: "rust", rb: "ruby", golang: "go", toml: "ini", docker: "dockerfile", kt: "kotlin",
};

let core: Promise<HLJSApi> | null = null;
const loaded = new Map<string, Promise<boolean>>();

/** The grammar name for a fence's language tag, or null. */
function grammarFor(tag: string): string | null {
  const name = ALIASES[tag.toLowerCase()] ?? tag.toLowerCase();
  return name in LOADERS ? name : null;
}

/** Highlighted HTML for `code` (highlight.js escapes it), or null when the language is not available. */
export async function highlight(code: string, tag: string): Promise<string | null> {
  const name = grammarFor(tag);
  if (!name) return null;
  core ??= import("highlight.js/lib/core").then((m) => m.default);
  const hljs = await core;
  let ready = loaded.get(name);
  if (!ready) {
    ready = LOADERS[name]!().then((m) => {
      hljs.registerLanguage(name, m.default);
      return true;
    });
    loaded.set(name, ready);
  }
  await ready;
  return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
}
