import type { Passage } from "./passages";

/**
 * A project file's passage and the name it goes under: apart from the ranking (./retrieval.ts), which loads
 * with a project's first turn, because the chat shows these names (docs/issues.md #42, /chat's first load).
 */

/** A passage of a named file. */
export interface FilePassage extends Passage {
  fileName: string;
}

/** The name a passage goes to the model under (as a document block), and the line "Sources" shows: "notes.txt, part 3". */
export function passageSourceName(p: Pick<FilePassage, "fileName" | "section">): string {
  return `${p.fileName}, ${p.section}`;
}
