/** The first line of the title request; the e2e fake model recognises it (tests/helpers/fake-llm-server.ts). */
export const TITLE_REQUEST_HEADER = "Write a title of at most six words for the conversation below.";

export function standInTitle(content: string): string | null {
  if (!content.startsWith(TITLE_REQUEST_HEADER)) return null;
  const user = /<conversation>\nUser: ([\s\S]*?)\n\nAssistant: /.exec(content)?.[1] ?? "";
  return user.split(/\s+/).filter(Boolean).slice(0, 6).join(" ").replace(/[.?!,;:]+$/, "") || "New chat";
}
