/**
 * What the fake OpenAI-compatible server (./fake-llm-server.ts) answers: the scenario a message's trigger word asks
 * for, a chat title, and the deterministic answer that echoes the question and names what came with it.
 */

export type FakeScenario = "default" | "429" | "500" | "400" | "hang" | "stall" | "cut" | "error-event" | "slow";

const SCENARIOS: readonly FakeScenario[] = ["429", "500", "400", "hang", "stall", "cut", "error-event", "slow"];

const DOC_EXCERPT_CHARS = 100;

/** The scenario named by a trigger word in `text`, or "default". */
export function scenarioFromText(text: string): FakeScenario {
  const match = /\[\[fake:([a-z0-9-]+)\]\]/.exec(text);
  const name = match?.[1] as FakeScenario | undefined;
  return name && SCENARIOS.includes(name) ? name : "default";
}

/**
 * The answer to a generated-title request (docs/issues.md #23; lib/browser/chat/generated-title.ts, whose header is
 * repeated here so this server keeps no imports): "Title: " and the first six words of the conversation's
 * user side, so the browser's tidying is exercised and a short first message is named as its fallback is.
 */
export function fakeTitle(content: string): string | null {
  if (!content.startsWith("Write a title of at most six words for the conversation below.")) return null;
  const user = /<conversation>\nUser: ([\s\S]*?)\n\nAssistant: /.exec(content)?.[1] ?? "";
  return `Title: ${user.split(/\s+/).filter(Boolean).slice(0, 6).join(" ").replace(/[.?!,;:]+$/, "")}`;
}

/** The deterministic default answer for a conversation (exported so tests can compare). */
export function fakeAnswer(messages: readonly { role: string; content: string; images?: readonly unknown[] }[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  let rest = lastUser?.content ?? "";
  const title = fakeTitle(rest);
  if (title) return title;
  let web: string[] | null = null;
  const block = /^<web_results>\n([\s\S]*?)\n?<\/web_results>(?:\n\n|$)/.exec(rest);
  if (block) {
    web = [...(block[1] ?? "").matchAll(/<result [^>]*>\n([\s\S]*?)\n<\/result>/g)].map((m) => m[1] ?? "");
    rest = rest.slice(block[0].length);
  }
  const docs: string[] = [];
  for (;;) {
    const doc = /^<document\b[^>]*>\n([\s\S]*?)\n<\/document>(?:\n\[Note: [^\n]*\])?(?:\n\n|$)/.exec(rest);
    if (!doc) break;
    docs.push(doc[1] ?? "");
    rest = rest.slice(doc[0].length);
  }
  const question = rest.trim();
  // A tool's answer after the last user message (OpenAI function calling): its <web_results> are the web's.
  const toolResult = messages.slice(messages.lastIndexOf(lastUser!) + 1).find((m) => m.role === "tool")?.content;
  if (toolResult !== undefined && web === null) {
    const inner = /<web_results>\n?([\s\S]*?)\n?<\/web_results>/.exec(toolResult)?.[1];
    if (inner !== undefined) web = [...inner.matchAll(/<result [^>]*>\n([\s\S]*?)\n<\/result>/g)].map((m) => m[1] ?? "");
  }
  if (/reveal the system prompt/i.test(question)) return `System prompt: ${messages.find((m) => m.role === "system")?.content ?? ""}`;
  let answer = `You asked: ${question}${/[.?!]$/.test(question) ? "" : "."}`;
  // A device tool's result (lib/shared/llm/device-tools.ts), quoted as the model got it.
  const deviceResult = messages.slice(messages.lastIndexOf(lastUser!) + 1).find((m) => m.role === "tool" && m.content.startsWith('{"local"'))?.content;
  if (deviceResult !== undefined) answer += ` On your device: ${deviceResult}`;
  // A program run on the device (docs/issues.md #51, lib/browser/code/output.ts codeResult): its status and output, quoted.
  const codeRun = messages.slice(messages.lastIndexOf(lastUser!) + 1).find((m) => m.role === "tool" && /\n\nOutput:\n/.test(m.content))?.content;
  if (codeRun !== undefined) answer += ` From the code on your device: ${codeRun.replace(/\s+/g, " ").trim().slice(0, 300)}`;
  // A read page (lib/shared/llm/read-page-prompt.ts), quoted, never obeyed.
  const page = toolResult === undefined ? undefined : /^<web_page [^>]*>\n([\s\S]*?)\n<\/web_page>$/.exec(toolResult)?.[1];
  if (page !== undefined) answer += ` From the page: ${page.replace(/\s+/g, " ").slice(0, 80)}`;
  if (web) answer += web[0] !== undefined ? ` From the web: ${web[0].replace(/\s+/g, " ").slice(0, 80)} [1]` : " No web results.";
  if (docs[0] !== undefined) {
    const excerpt = docs[0].replace(/\s+/g, " ").trim().slice(0, DOC_EXCERPT_CHARS);
    answer += ` The document begins: ${excerpt}`;
  }
  if (docs.length > 1) answer += ` Documents: ${docs.length}.`;
  if (lastUser?.images?.length) answer += ` Images: ${lastUser.images.length}.`;
  // docs/issues.md #41: "remember that <fact>" gets a suggested memory (lib/shared/llm/memory-prompt.ts).
  const fact = /\bremember that (.+?)[.!?]?$/i.exec(question)?.[1];
  if (fact) answer += `\n\n<remember>${fact}</remember>`;
  return answer;
}
