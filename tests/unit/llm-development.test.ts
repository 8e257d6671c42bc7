import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { getLlmProvider, LlmError, providerLabel, buildModelMessages, type LlmEvent } from "@/lib/llm";
import { createDevelopmentProvider, developmentAnswer, DEVELOPMENT_NOTICE } from "@/lib/llm/development";

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

  it("shows how Markdown renders: a heading, a list, a code block and a table, after the notice", () => {
    const answer = developmentAnswer(buildModelMessages([{ role: "user", content: "Hello there, Hush" }]));
    expect(answer.startsWith(DEVELOPMENT_NOTICE)).toBe(true);
    expect(answer).toMatch(/^## How answers look$/m);
    expect(answer).toMatch(/^- \*\*Lists\*\*/m);
    expect(answer).toContain('```json\n{\n  "words": 3,\n  "characters": 17\n}\n```');
    expect(answer).toContain("| Your message | Count |\n| --- | ---: |\n| Words | 3 |\n| Characters | 17 |");
    expect(answer.indexOf("You asked:")).toBeLessThan(answer.indexOf("## How answers look"));
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
