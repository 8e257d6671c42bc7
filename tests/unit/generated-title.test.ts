import { describe, expect, it } from "vitest";
import { cleanTitle, generateTitle, standInTitle, TITLE_REQUEST_HEADER, titleRequestMessages } from "@/lib/browser/chat/generated-title";
import { fakeAnswer } from "../helpers/fake-llm-server";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { openProject, sealProject } from "@/lib/browser/vault/projects";
import { PROJECT_INSTRUCTIONS_MAX_CHARS, PROJECT_NAME_MAX_CHARS } from "@/lib/shared/projects/schemas";

/** Generated titles and sealed projects (docs/issues.md #23): the pure parts the chat screen relies on. */
describe("generated titles", () => {
  it("asks in one user message holding both sides, cut to excerpts", () => {
    const [m, ...rest] = titleRequestMessages("How do tides work?", "a".repeat(5000));
    expect(rest).toEqual([]);
    expect(m!.role).toBe("user");
    expect(m!.content.startsWith(TITLE_REQUEST_HEADER)).toBe(true);
    expect(m!.content).toContain("User: How do tides work?\n\nAssistant: ");
    expect(m!.content.length).toBeLessThan(2000);
  });

  it("tidies the model's answer into a title, or gives null", () => {
    expect(cleanTitle('"Tide Tables Explained."')).toBe("Tide Tables Explained");
    expect(cleanTitle("Title: **Moon phases**\nMore text")).toBe("Moon phases");
    expect(cleanTitle("## Weekly dinner plan")).toBe("Weekly dinner plan");
    expect(cleanTitle("\n  \n")).toBeNull();
    expect(cleanTitle("“”")).toBeNull();
    expect(cleanTitle("x".repeat(100))!.length).toBe(60);
  });

  it("the e2e fake model and the development responder answer title requests with a title", () => {
    const request = titleRequestMessages("Please help me plan a week of dinners", "Sure.");
    expect(cleanTitle(fakeAnswer(request))).toBe("Please help me plan a week");
    expect(standInTitle(request[0]!.content)).toBe("Please help me plan a week");
    expect(standInTitle("An ordinary question")).toBeNull();
  });

  it("keeps the fallback (null) when the call fails, and sends an ordinary chat call that saves nothing", async () => {
    expect(await generateTitle({ send: () => Promise.reject(new Error("offline")), model: "m", question: "q", answer: "a" })).toBeNull();
    let sent: unknown;
    const title = await generateTitle({
      send: async (input) => {
        sent = input;
        return { messages: [...input.messages, { role: "assistant", content: "Title: Tides" }], chat_id: null, context: { omitted_messages: 0, omitted_documents: 0, latest_message_cut: false } };
      },
      model: "m",
      question: "q",
      answer: "a",
    });
    expect(title).toBe("Tides");
    expect(sent).toMatchObject({ endpoint: "chatSignedIn", chatId: null, saveChat: false, documents: [], file: null });
  });
});

describe("sealed projects", () => {
  it("open only for their user and project, normalized and capped", async () => {
    const key = await importVaultKey(generateVaultKey());
    const id = crypto.randomUUID();
    const sealed = await sealProject(key, "u1", id, { name: "  Trip \n to Japan ", instructions: ` ${"i".repeat(PROJECT_INSTRUCTIONS_MAX_CHARS + 10)} ` });
    expect(await openProject(key, "u1", id, sealed)).toEqual({ name: "Trip to Japan", instructions: "i".repeat(PROJECT_INSTRUCTIONS_MAX_CHARS) });
    await expect(openProject(key, "u2", id, sealed)).rejects.toThrow();
    await expect(openProject(key, "u1", crypto.randomUUID(), sealed)).rejects.toThrow();
    const long = await sealProject(key, "u1", id, { name: "n".repeat(PROJECT_NAME_MAX_CHARS + 5), instructions: "" });
    expect((await openProject(key, "u1", id, long)).name).toHaveLength(PROJECT_NAME_MAX_CHARS);
  });
});
