import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkImportFile,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CHATS,
  IMPORT_MAX_MESSAGE_CHARS,
  parseChatGptExport,
  parseConversation,
} from "@/lib/browser/chat/import-chatgpt";

const fixture = readFileSync(path.join(__dirname, "../fixtures/chatgpt-conversations.json"), "utf8");
const NOW = new Date("2026-11-22T12:00:00Z");

describe("ChatGPT import (docs/issues.md #9)", () => {
  it("reads the export's conversations along current_node, newest first, with their dates", () => {
    const { chats, skipped } = parseChatGptExport(fixture, NOW);
    expect(chats.map((c) => c.title)).toEqual(["Read this receipt", "Sourdough starter help", "Plan a weekend in Lisbon"]);
    expect(skipped).toBe(1);
    const lisbon = chats[2]!;
    expect(lisbon.createdAt.toISOString()).toBe("2024-05-01T10:00:00.123Z");
    expect(lisbon.updatedAt.toISOString()).toBe("2024-05-01T10:10:00.623Z");
    expect(lisbon.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(lisbon.messages[0]!.content).toBe("What should I see in Lisbon over a weekend?");
    expect(lisbon.messages[1]!.content).toContain("- Day 2: Belém");
    // The hidden system message and the custom instructions are not part of the conversation.
    expect(JSON.stringify(lisbon.messages)).not.toContain("I like trams");
  });

  it("takes the current branch of an edited conversation, skips tool calls and joins consecutive answers", () => {
    const sourdough = parseChatGptExport(fixture, NOW).chats[1]!;
    expect(sourdough.messages).toEqual([
      { role: "user", content: "My rye starter smells like acetone after 3 days. What now?" },
      { role: "assistant", content: "Acetone means it ran out of food. Discard half and feed 1:1:1." },
      { role: "user", content: "What hydration should the dough have?" },
      {
        role: "assistant",
        content: "Aim for **70–75%** hydration for a first loaf.\n\nHigher hydration gives a more open crumb but is harder to shape.",
      },
    ]);
    expect(JSON.stringify(sourdough)).not.toContain("nail polish");
    expect(JSON.stringify(sourdough)).not.toContain("search(");
    expect(JSON.stringify(sourdough)).not.toContain("Results:");
  });

  it("keeps the text of a message with an image, notes the attachment's name, and follows the newest child without current_node", () => {
    const receipt = parseChatGptExport(fixture, NOW).chats[0]!;
    expect(receipt.messages).toEqual([
      { role: "user", content: "What is the total on this receipt?" },
      { role: "assistant", content: "The total is 23.40 EUR." },
    ]);
    expect(receipt.attachmentNames).toEqual(["receipt.jpg"]);
  });

  it("ignores unknown fields and tolerates odd ones (null times, a cycle, a missing parent)", () => {
    const odd = {
      title: "   Spaced   title  ",
      create_time: null,
      update_time: 9_999_999_999,
      extra: { anything: true },
      current_node: "b",
      mapping: {
        a: { id: "a", parent: "b", children: ["b"], message: { author: { role: "user" }, content: { content_type: "text", parts: ["hi"] }, create_time: null } },
        b: { id: "b", parent: "a", children: ["a"], message: { author: { role: "assistant" }, content: { content_type: "text", parts: ["hello"] } } },
      },
    };
    const chat = parseConversation(odd, NOW)!;
    expect(chat.title).toBe("Spaced title");
    expect(chat.messages.map((m) => m.content)).toEqual(["hi", "hello"]);
    // A date in the future or missing falls back to the import time.
    expect(chat.updatedAt).toEqual(NOW);
    expect(chat.createdAt).toEqual(NOW);
  });

  it("cuts an overlong message and marks it", () => {
    const long = "x".repeat(IMPORT_MAX_MESSAGE_CHARS + 10);
    const chat = parseConversation(
      { title: "Long", mapping: { r: { parent: null, children: [], message: { author: { role: "user" }, content: { content_type: "text", parts: [long] } } } }, current_node: "r" },
      NOW,
    )!;
    expect(chat.messages[0]!.content.length).toBeLessThan(long.length + 60);
    expect(chat.messages[0]!.content).toMatch(/Cut at import/);
  });

  it("refuses a wrong file with a clear message", () => {
    for (const text of ["not json", "{}", '{"conversations": []}', '[{"title": "x"}]', "[1, 2, 3]"]) {
      expect(() => parseChatGptExport(text, NOW)).toThrow(expect.objectContaining({ code: "bad_request:import_file" }));
      expect(() => parseChatGptExport(text, NOW)).toThrow(/not a ChatGPT export/);
    }
    expect(parseChatGptExport("[]", NOW)).toEqual({ chats: [], skipped: 0 });
  });

  it("enforces its limits: chat count and file size", () => {
    const many = JSON.stringify(Array.from({ length: IMPORT_MAX_CHATS + 1 }, () => ({ mapping: {} })));
    expect(() => parseChatGptExport(many, NOW)).toThrow(/more than 10,000 conversations/);
    expect(() => checkImportFile({ name: "conversations.json", size: IMPORT_MAX_BYTES + 1 })).toThrow(/too large \(limit 200 MB\)/);
    expect(() => checkImportFile({ name: "conversations.json", size: 0 })).toThrow(expect.objectContaining({ code: "bad_request:import_file" }));
    expect(() => checkImportFile({ name: "conversations.json", size: 1000 })).not.toThrow();
  });
});
