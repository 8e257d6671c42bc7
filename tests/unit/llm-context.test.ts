import { describe, expect, it } from "vitest";
import { contextNotice } from "@/components/chat/use-documents";
import { estimateTokens, fitContext } from "@/lib/shared/llm/fit-context";
import { SYSTEM_PROMPT } from "@/lib/shared/llm/prompt";

/** The context budget (lib/shared/llm/fit-context.ts) on its own: what is kept, in which order. */
const msg = (role: "user" | "assistant", content: string) => ({ role, content });
const doc = (name: string, chars: number) => ({ name, text: "d".repeat(chars), truncated: false });
const total = (messages: { content: string }[]) => messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);

describe("estimateTokens", () => {
  it("counts about 4 bytes a token, so multi-byte scripts count more per character", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd".repeat(100))).toBe(100);
    expect(estimateTokens("日本語".repeat(100))).toBe(225);
  });
});

describe("fitContext", () => {
  it("keeps everything when it fits", () => {
    const fitted = fitContext({ history: [msg("user", "a"), msg("assistant", "b"), msg("user", "c")], documents: [doc("x.pdf", 100)], budgetTokens: 10_000 });
    expect(fitted.report).toEqual({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false });
    expect(fitted.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(fitted.messages[0]!.content).toBe(SYSTEM_PROMPT);
    expect(fitted.messages.at(-1)!.content).toMatch(/^<document name="x.pdf">[\s\S]*\n\nc$/);
  });

  it("drops the oldest messages first and keeps a contiguous newest part within the budget", () => {
    const history = Array.from({ length: 1000 }, (_, i) => msg(i % 2 ? "assistant" : "user", `m${i} ${"w".repeat(400)}`));
    const fitted = fitContext({ history, documents: [doc("a.pdf", 4000)], budgetTokens: 8000 });
    const kept = fitted.messages.slice(1);
    expect(fitted.report.omitted_documents).toBe(0);
    expect(fitted.report.omitted_messages).toBe(1000 - kept.length);
    expect(kept[0]!.content).toBe(history[fitted.report.omitted_messages]!.content);
    expect(kept.at(-1)!.content.endsWith(history.at(-1)!.content)).toBe(true);
    expect(total(fitted.messages)).toBeLessThanOrEqual(8000);
  });

  it("then drops the oldest documents, then cuts the newest one", () => {
    const history = [msg("user", "old"), msg("assistant", "older answer"), msg("user", "now")];
    const some = fitContext({ history, documents: [doc("1.pdf", 4000), doc("2.pdf", 4000), doc("3.pdf", 4000)], budgetTokens: 2600 });
    expect(some.report).toEqual({ omitted_messages: 2, omitted_documents: 1, latest_message_cut: false });
    expect(some.messages.at(-1)!.content).toContain('name="2.pdf"');
    const cut = fitContext({ history, documents: [doc("1.pdf", 4000), doc("2.pdf", 40_000)], budgetTokens: 3000 });
    expect(cut.report.omitted_documents).toBe(1);
    expect(cut.messages.at(-1)!.content).toContain("[Note: this document was too long and is truncated");
    expect(total(cut.messages)).toBeLessThanOrEqual(3000);
  });

  it("never drops the latest message: it is cut in the middle when it alone is too long", () => {
    const long = `START${"y".repeat(20_000)}END`;
    const fitted = fitContext({ history: [msg("user", long)], documents: [doc("a.pdf", 100)], budgetTokens: 1000 });
    expect(fitted.report).toEqual({ omitted_messages: 0, omitted_documents: 1, latest_message_cut: true });
    const sent = fitted.messages.at(-1)!.content;
    expect(sent.startsWith("START")).toBe(true);
    expect(sent.endsWith("END")).toBe(true);
    expect(total(fitted.messages)).toBeLessThanOrEqual(1000);
  });
});

describe("contextNotice (the chat's line)", () => {
  it("says what was left out, and nothing when nothing was", () => {
    expect(contextNotice(null)).toBeNull();
    expect(contextNotice({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false })).toBeNull();
    expect(contextNotice({ omitted_messages: 12, omitted_documents: 1, latest_message_cut: false })).toBe(
      "Older content was left out to fit the model's limit: the first 12 messages and the oldest document of this chat were not sent to the model.",
    );
    expect(contextNotice({ omitted_messages: 1, omitted_documents: 0, latest_message_cut: true })).toMatch(/: the first message of this chat was not sent to the model\. Your last message was too long/);
  });
});
