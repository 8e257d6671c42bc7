import type { Passage } from "./passages";

// Apart from ./retrieval.ts, which loads with a project's first turn, because the chat shows these names at first load.

export interface FilePassage extends Passage {
  fileName: string;
}

export function passageSourceName(p: Pick<FilePassage, "fileName" | "section">): string {
  return `${p.fileName}, ${p.section}`;
}
