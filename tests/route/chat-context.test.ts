import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/ns/chat/route";
import { resetConfigForTests } from "../helpers/process-state";
import { estimateTokens } from "@/lib/server/llm";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * Follow-up questions keep the document, and long conversations fit the model's context budget
 * (docs/issues.md #8). The real visitor route, the real openai SDK, the fake OpenAI-compatible server, which
 * records what the model received.
 */
let llm: FakeLlmServer;
let t: TestDb;
const BASIC = "llama3-8b-8192";
/** A PDF's text as the browser extracts it (lib/browser/pdf) and sends it as the turn's `document`. */
const report = "Hush quarterly privacy report.\n\nPage two: what Hush can see.\n\nPage three: the next review.";

function post(body: unknown, accept = "application/json") {
  return POST(
    new Request("http://localhost/api/ns/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: accept },
      body: JSON.stringify(body),
    }),
  );
}

function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  Object.assign(process.env, env);
  resetConfigForTests();
  return run().finally(() => {
    for (const key of Object.keys(env)) delete process.env[key];
    resetConfigForTests();
  });
}

const lastReceived = () => llm.requests.at(-1)!.messages;
const receivedText = () => lastReceived().map((m) => m.content).join("\n");

beforeAll(async () => {
  llm = await startFakeLlmServer();
  process.env.LLM_BASE_URL = `${llm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  process.env.LLM_TIMEOUT_MS = "5000";
  delete process.env.GROQ_API_KEY;
  process.env.QUOTA_VISITOR_PER_DAY = "10000";
  t = await setupTestDb();
  resetConfigForTests();
});

afterAll(async () => {
  await t.cleanup();
  await llm.close();
  for (const key of ["QUOTA_VISITOR_PER_DAY", "LLM_BASE_URL", "LLM_API_KEY", "LLM_TIMEOUT_MS"]) delete process.env[key];
  resetConfigForTests();
});

beforeEach(() => {
  llm.requests.length = 0;
});

describe("follow-up questions keep the document", () => {
  it("sends this turn's PDF text as `document`, and the model receives it again on the next turn as one of `documents`", async () => {
    const first = await post({
      messages: [{ role: "user", content: "What is this report about?" }],
      model: BASIC,
      document: { name: "report.pdf", text: report },
      chat_id: null,
    });
    expect(first.status).toBe(200);
    const one = await first.json();
    expect(one).not.toHaveProperty("document");
    expect(one.context).toEqual({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false });

    llm.requests.length = 0;
    const second = await post(
      {
        messages: [...one.messages, { role: "user", content: "And what does it say next?" }],
        model: BASIC,
              documents: [{ name: "report.pdf", text: report }],
        chat_id: null,
      },
      "text/event-stream",
    );
    expect(second.status).toBe(200);
    const done = (await second.text()).split("\n\n").find((b) => b.startsWith("event: done"))!;
    const two = JSON.parse(/^data: (.*)$/m.exec(done)![1]!);
    // What the model received on the second turn: the document, in the latest user message.
    const latest = lastReceived().at(-1)!;
    expect(latest.role).toBe("user");
    expect(latest.content).toContain('<document name="report.pdf">');
    expect(latest.content).toContain(report);
    expect(latest.content.endsWith("And what does it say next?")).toBe(true);
    expect(two.messages.at(-1).content).toContain("The document begins: Hush quarterly privacy report");
    expect(two).not.toHaveProperty("document");
    expect(two.context).toEqual({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false });
  });

  it("keeps every document of the conversation, oldest first, with this turn's PDF last", async () => {
    const res = await post({
      messages: [{ role: "user", content: "Compare" }],
      model: BASIC,
      document: { name: "new.pdf", text: report },
      documents: [{ name: "old.pdf", text: "Old document text" }],
    });
    expect(res.status).toBe(200);
    const content = lastReceived().at(-1)!.content;
    expect(content.indexOf('<document name="old.pdf">')).toBeGreaterThanOrEqual(0);
    expect(content.indexOf('<document name="old.pdf">')).toBeLessThan(content.indexOf('<document name="new.pdf"'));
    expect((await res.json()).messages.at(-1).content).toContain("Documents: 2.");
  });
});

describe("the context budget", () => {
  it("answers a 1,000-message conversation, leaving out the oldest messages only", async () => {
    const messages = Array.from({ length: 1000 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `Message ${i}: ${"lorem ipsum dolor sit amet ".repeat(20)}`,
    }));
    messages.push({ role: "user", content: "Latest question?" });
    const res = await post({ messages, model: BASIC, documents: [{ name: "kept.pdf", text: "Kept document" }] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.messages).toHaveLength(1002);
    const omitted = body.context.omitted_messages;
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(1000);
    expect(body.context.omitted_documents).toBe(0);
    const received = lastReceived();
    // System prompt, then exactly the newest messages, contiguous, ending with the latest question.
    expect(received).toHaveLength(1 + 1001 - omitted);
    expect(received[1]!.content).toBe(messages[omitted]!.content);
    expect(received.at(-1)!.content).toContain("Latest question?");
    expect(received.at(-1)!.content).toContain("Kept document");
    const tokens = received.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
    expect(tokens).toBeLessThanOrEqual(32_000);
    expect(tokens).toBeGreaterThan(30_000);
  });

  it("leaves out older documents only after every older message, and says so", () =>
    withEnv({ LLM_BASIC_CONTEXT_TOKENS: "2000" }, async () => {
      const doc = (name: string) => ({ name, text: `${name} `.repeat(600) });
      const res = await post({
        messages: [
          { role: "user", content: "Old question" },
          { role: "assistant", content: "Old answer" },
          { role: "user", content: "New question" },
        ],
        model: BASIC,
        documents: [doc("first.pdf"), doc("second.pdf"), doc("third.pdf")],
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.context).toEqual({ omitted_messages: 2, omitted_documents: 2, latest_message_cut: false });
      const text = receivedText();
      expect(text).not.toContain("Old question");
      expect(text).not.toContain('name="first.pdf"');
      expect(text).not.toContain('name="second.pdf"');
      expect(text).toContain('name="third.pdf"');
    }));

  it("cuts a latest message longer than the whole budget in the middle instead of failing", () =>
    withEnv({ LLM_BASIC_CONTEXT_TOKENS: "1000" }, async () => {
      const long = `BEGINNING ${"x".repeat(30_000)} THE QUESTION?`;
      const res = await post({ messages: [{ role: "user", content: "Earlier" }, { role: "assistant", content: "Ok" }, { role: "user", content: long }], model: BASIC });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.context).toEqual({ omitted_messages: 2, omitted_documents: 0, latest_message_cut: true });
      // The browser keeps the full message; only the model's copy was cut.
      expect(body.messages.at(-2).content).toBe(long);
      const sent = lastReceived().at(-1)!.content;
      expect(sent.startsWith("BEGINNING")).toBe(true);
      expect(sent.endsWith("THE QUESTION?")).toBe(true);
      expect(sent).toMatch(/too long for the model's context; [\d,]+ characters in the middle were left out/);
      expect(estimateTokens(receivedText())).toBeLessThanOrEqual(1000);
    }));
});
