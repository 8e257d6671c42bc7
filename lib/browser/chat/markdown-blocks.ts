// Split at blank lines, never inside a fence or a `$$` block, so a streaming answer re-renders only its last block.
export function splitBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let math = false;
  let blankSeen = false;

  const flush = () => {
    if (current.length > 0) blocks.push(current.join("\n"));
    current = [];
  };

  for (const line of text.split("\n")) {
    if (fence !== null) {
      current.push(line);
      if (line.trimStart().startsWith(fence) && line.trim().replace(new RegExp(`^${fence[0] === "`" ? "`" : "~"}+`), "") === "") fence = null;
      continue;
    }
    if (math) {
      current.push(line);
      if (line.trim().endsWith("$$")) math = false;
      continue;
    }
    if (line.trim() === "") {
      blankSeen = current.length > 0;
      continue;
    }
    if (blankSeen && !/^[ \t]/.test(line)) flush();
    else if (blankSeen) current.push("");
    blankSeen = false;
    current.push(line);
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) fence = opening[1] ?? null;
    else if (line.trim().startsWith("$$") && !(line.trim().length > 2 && line.trim().endsWith("$$"))) math = true;
  }
  flush();
  return blocks;
}
