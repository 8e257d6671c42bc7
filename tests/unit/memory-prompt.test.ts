import { describe, expect, it } from "vitest";
import { memoriesWithinBudget, memorySystemMessage, MEMORY_PREFIX, MEMORY_SUGGESTION_RULE, parseMemorySuggestion } from "@/lib/shared/llm/memory-prompt";
import { fitContext } from "@/lib/shared/llm/fit-context";
import { developmentAnswer } from "@/lib/server/llm/development";
import { fakeAnswer } from "../helpers/fake-llm-server";

/** docs/issues.md #41: memories in the model input, their budget, and suggested memories in answers. */
describe("memory prompt", () => {
  it("keeps the newest facts within the budget, in order, and stops at the first that does not fit", () => {
    const facts = Array.from({ length: 40 }, (_, i) => `Fact ${i} ${"x".repeat(400)}`);
    const kept = memoriesWithinBudget(facts, 1500);
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(40);
    expect(kept).toEqual(facts.slice(0, kept.length));
    expect(memoriesWithinBudget(["  a   b ", ""], 1500)).toEqual(["a b"]);
  });

  it("says nothing about memory when it is off, and the rule alone when there are no facts", () => {
    expect(memorySystemMessage(undefined)).toBeNull();
    expect(memorySystemMessage([])).toEqual({ role: "system", content: MEMORY_SUGGESTION_RULE });
    expect(memorySystemMessage(["Lives in Dunedin"])!.content).toBe(`${MEMORY_PREFIX}\n- Lives in Dunedin\n\n${MEMORY_SUGGESTION_RULE}`);
  });

  it("fitContext puts memory after the system prompt and project instructions, before the turns", () => {
    const fitted = fitContext({
      history: [{ role: "user", content: "Hi" }],
      documents: [],
      budgetTokens: 32_000,
      memories: ["Prefers tea"],
      instructions: "Project rules",
    });
    expect(fitted.messages.map((m) => m.role)).toEqual(["system", "system", "system", "user"]);
    expect(fitted.messages[1]!.content).toContain("Project rules");
    expect(fitted.messages[2]!.content).toContain("- Prefers tea");
    expect(fitContext({ history: [{ role: "user", content: "Hi" }], documents: [], budgetTokens: 32_000 }).messages).toHaveLength(2);
  });

  it("takes a suggestion out of an answer; only the first block counts; an empty one is none", () => {
    expect(parseMemorySuggestion("Noted.\n\n<remember>Vegetarian</remember>")).toEqual({ text: "Noted.", suggestion: "Vegetarian" });
    expect(parseMemorySuggestion("No block here")).toEqual({ text: "No block here", suggestion: null });
    expect(parseMemorySuggestion("x <remember> </remember>")).toEqual({ text: "x", suggestion: null });
    expect(parseMemorySuggestion("<remember>a</remember> and <remember>b</remember>").suggestion).toBe("a");
  });

  it("the fake model and the development responder suggest on 'remember that …'", () => {
    expect(fakeAnswer([{ role: "user", content: "Please remember that I am vegetarian." }])).toContain("<remember>I am vegetarian</remember>");
    const withMemory = [memorySystemMessage([])!, { role: "user" as const, content: "remember that I live in Nelson" }];
    expect(developmentAnswer(withMemory)).toContain("<remember>I live in Nelson</remember>");
    expect(developmentAnswer([{ role: "user", content: "remember that I live in Nelson" }])).not.toContain("<remember>");
  });
});
