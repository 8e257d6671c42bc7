import { splitBlocks } from "@/lib/browser/chat/markdown-blocks";

// Code blocks, tables and display formulas become a short note instead of being read symbol by symbol.

export const CODE_OMITTED = "Code block omitted.";
export const TABLE_OMITTED = "Table omitted.";
export const FORMULA_OMITTED = "Formula omitted.";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** Empty blocks dropped. */
export function speakableBlocks(markdown: string): string[] {
  const out: string[] = [];
  for (const block of splitBlocks(markdown)) {
    const lines = block.split("\n");
    const first = lines[0] ?? "";
    if (FENCE.test(first) || lines.every((l) => /^( {4}|\t)/.test(l))) {
      out.push(CODE_OMITTED);
      continue;
    }
    if (first.trim().startsWith("$$")) {
      out.push(FORMULA_OMITTED);
      continue;
    }
    const ruleAt = lines.findIndex((l) => TABLE_RULE.test(l) && l.includes("-"));
    if (ruleAt > 0 && lines[ruleAt - 1]!.includes("|")) {
      // A lead-in line of the same block is still read.
      const before = lines.slice(0, ruleAt - 1).map(plainLine).filter(Boolean).join(" ");
      if (before) out.push(before);
      out.push(TABLE_OMITTED);
      continue;
    }
    const text = lines.map(plainLine).filter(Boolean).join(" ");
    if (text) out.push(text);
  }
  return out;
}

function plainLine(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, "")
    .replace(/^\s*>\s?/, "")
    .replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, "")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/\S+/g, "a link")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\$([^$]+)\$/g, "$1")
    .replace(/(\*\*|__|\*|_|~~)(?=\S)([^*_~]+?)\1/g, "$2")
    .replace(/^\s*([-*_]\s*){3,}$/, "")
    .replace(/<[^>]+>/g, "")
    .trim();
}
