import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../helpers/process-state";
import { getLlmProvider, LlmError, providerLabel, buildModelMessages, type LlmEvent } from "@/lib/server/llm";
import { WEB_SEARCH_TOOL } from "@/lib/shared/llm/tools";
import { formatWebResults } from "@/lib/shared/llm/search-prompt";
import { createDevelopmentProvider, developmentAnswer, DEVELOPMENT_NOTICE, sampleKind } from "@/lib/server/llm/development";

afterEach(() => {
  resetConfigForTests();
});

async function run(events: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const doc = {
  name: "report.pdf",
  text: "Hush quarterly privacy report.\n\nEvery conversation stayed encrypted.\nZero trackers.\nFourth line is not quoted.",
  pages: 3,
  totalPages: 3,
  truncated: false,
};

describe("development responder", () => {
  it("is chosen when no provider is configured, with a label saying so", () => {
    delete process.env.GROQ_API_KEY;
    delete process.env.LLM_BASE_URL;
    resetConfigForTests();
    expect(getLlmProvider().kind).toBe("development");
    expect(providerLabel()).toBe("Development responder (no model configured)");
  });

  it("restates the last question and says where the answer comes from", () => {
    const answer = developmentAnswer(
      buildModelMessages([
        { role: "user", content: "First question" },
        { role: "assistant", content: "First answer" },
        { role: "user", content: "What  is\nHush?" },
      ]),
    );
    expect(answer.startsWith(DEVELOPMENT_NOTICE)).toBe(true);
    expect(answer).toContain("built-in development responder");
    expect(answer).toContain("You asked: “What is Hush?”");
    expect(answer).not.toContain("First question");
  });

  it("adds one short sample of what answers hold, varied by the message: a list, a code block or a formula", () => {
    const kinds = new Set<string>();
    for (const text of ["Hello there, Hush", "What is a vault?", "Plan my week", "Tell me about tides", "Why encrypt?", "One more"]) {
      const answer = developmentAnswer(buildModelMessages([{ role: "user", content: text }]));
      expect(answer.startsWith(DEVELOPMENT_NOTICE)).toBe(true);
      expect(answer.indexOf(`You asked: “${text}”`)).toBeGreaterThan(0);
      // Short: the notice, the quote and one sample.
      expect(answer.split("\n").length).toBeLessThan(15);
      const kind = sampleKind(text);
      kinds.add(kind);
      if (kind === "list") expect(answer).toMatch(/^- \d+ words?, \d+ characters?$/m);
      if (kind === "code") expect(answer).toMatch(/```json\n\{\n {2}"words": \d+,\n {2}"characters": \d+\n\}\n```/);
      if (kind === "formula") expect(answer).toMatch(/\$\$\\frac\{\\text\{characters\}\}/);
      // The same message always gets the same answer.
      expect(developmentAnswer(buildModelMessages([{ role: "user", content: text }]))).toBe(answer);
    }
    expect(kinds.size).toBeGreaterThan(1);
  });

  it("gives consecutive turns of a conversation different kinds of sample", () => {
    const turns = ["Plan my week", "And Friday?", "Shorter please"];
    const seen = turns.map((_, i) => sampleKind("Plan my week", i + 1));
    expect(new Set(seen).size).toBe(3);
    const conversation = buildModelMessages([
      { role: "user", content: turns[0]! },
      { role: "assistant", content: "…" },
      { role: "user", content: turns[1]! },
    ]);
    const second = developmentAnswer(conversation);
    if (seen[1] === "list") expect(second).toMatch(/^- \d+ words?/m);
    if (seen[1] === "code") expect(second).toContain("```json");
    if (seen[1] === "formula") expect(second).toContain("$$");
  });

  it("quotes the opening lines of the attached document", () => {
    const answer = developmentAnswer(buildModelMessages([{ role: "user", content: "Summarise it" }], doc));
    expect(answer).toContain("You asked: “Summarise it”");
    expect(answer).toContain(
      "The attached document “report.pdf” begins:\n\n> Hush quarterly privacy report.\n> Every conversation stayed encrypted.\n> Zero trackers.",
    );
    expect(answer).not.toContain("Fourth line");
    expect(developmentAnswer(buildModelMessages([{ role: "user", content: "Summarise it" }], { ...doc, truncated: true }))).toContain(
      "Only the first part of the document was passed on.",
    );
  });

  it("streams the same answer every time, in several chunks, then usage", async () => {
    const provider = createDevelopmentProvider({ chunkDelayMs: 0 });
    const messages = buildModelMessages([{ role: "user", content: "Summarise it" }], doc);
    const first = await run(provider.stream({ model: "any", messages }));
    const second = await run(provider.stream({ model: "any", messages }));
    expect(second).toEqual(first);
    const deltas = first.filter((e) => e.type === "delta");
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((e) => e.text).join("")).toBe(developmentAnswer(messages));
    expect(first.at(-1)).toMatchObject({ type: "usage", usage: { estimated: true } });
  });

  it("offered web_search, calls it by the scripted rule, then answers from the role tool message's results, deterministically", async () => {
    const provider = createDevelopmentProvider({ chunkDelayMs: 0 });
    const messages = buildModelMessages([
      { role: "user", content: "population of France in 2020" },
      { role: "assistant", content: "About 67 million." },
      { role: "user", content: "and the year before?" },
    ]);
    const first = await run(provider.stream({ model: "any", messages, tools: [WEB_SEARCH_TOOL] }));
    expect(await run(provider.stream({ model: "any", messages, tools: [WEB_SEARCH_TOOL] }))).toEqual(first);
    const call = first.find((e) => e.type === "tool_call");
    expect(call).toMatchObject({ call: { name: "web_search", arguments: JSON.stringify({ queries: ["population of France in 2020 and the year before?"] }) } });
    expect(first.at(-1)).toMatchObject({ type: "usage", finishReason: "tool_calls" });
    const id = call!.type === "tool_call" ? call!.call.id : "";
    const results = formatWebResults([{ title: "France", url: "https://example.org/france", content: "67.2 million in 2019." }]);
    const answered = await run(
      provider.stream({
        model: "any",
        messages: [...messages, { role: "assistant", content: "", tool_calls: [call!.type === "tool_call" ? call!.call : { id, name: "", arguments: "" }] }, { role: "tool", tool_call_id: id, content: results }],
        tools: [WEB_SEARCH_TOOL],
      }),
    );
    expect(answered.some((e) => e.type === "tool_call")).toBe(false);
    expect(answered.filter((e) => e.type === "delta").map((e) => e.text).join("")).toContain("From the web: 67.2 million in 2019. [1]");
    expect(answered.at(-1)).toMatchObject({ type: "usage", finishReason: "stop" });
  });

  it("stops with aborted when the signal fires", async () => {
    const provider = createDevelopmentProvider({ chunkDelayMs: 1 });
    const controller = new AbortController();
    const seen: LlmEvent[] = [];
    const error = await (async () => {
      try {
        for await (const e of provider.stream({
          model: "any",
          messages: buildModelMessages([{ role: "user", content: "Hi" }]),
          signal: controller.signal,
        })) {
          seen.push(e);
          controller.abort();
        }
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe("aborted");
    expect(seen).toHaveLength(1);
  });
});
