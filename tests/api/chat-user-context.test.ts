import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { getConfig, resetConfigForTests } from "@/lib/config";
import { setManualPro } from "@/lib/manual-plan";
import { shutdownPdfWorkers } from "@/lib/pdf";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * The signed-in chat call with issue 8's additions: a saved chat's follow-up keeps the document, and
 * the Pro model goes to its own provider (LLM_PRO_BASE_URL) while Basic goes to the default one.
 * Real route, real database, the real openai SDK against two fake OpenAI-compatible servers.
 */
let t: TestDb;
let basicLlm: FakeLlmServer;
let proLlm: FakeLlmServer;
let user: { id: string; cookie: string };
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";
const report = `data:application/pdf;base64,${readFileSync("tests/fixtures/e2e-report.pdf").toString("base64")}`;

function send(body: Record<string, unknown>) {
  const origin = new URL(getConfig().APP_URL).origin;
  return chatUser(
    new Request(`${origin}/api/ns/chat_user`, {
      method: "POST",
      headers: { Origin: origin, Cookie: user.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ model: BASIC, file: null, chat_id: null, save_chat: true, ...body }),
    }),
  );
}

beforeAll(async () => {
  [basicLlm, proLlm] = await Promise.all([startFakeLlmServer(), startFakeLlmServer()]);
  process.env.LLM_BASE_URL = `${basicLlm.url}/v1`;
  process.env.LLM_API_KEY = "test";
  process.env.LLM_PRO_BASE_URL = `${proLlm.url}/v1`;
  process.env.LLM_PRO_API_KEY = "pro-test";
  t = await setupTestDb();
  resetConfigForTests();
  const u = await createTestUser("carol@example.com");
  user = { id: u.id, cookie: await sessionCookieFor(u.id) };
});

afterAll(async () => {
  await t.cleanup();
  await Promise.all([basicLlm.close(), proLlm.close()]);
  await shutdownPdfWorkers();
  for (const key of ["LLM_BASE_URL", "LLM_API_KEY", "LLM_PRO_BASE_URL", "LLM_PRO_API_KEY"]) delete process.env[key];
  resetConfigForTests();
});

beforeEach(() => {
  basicLlm.requests.length = 0;
  proLlm.requests.length = 0;
});

describe("POST /api/ns/chat_user (issue 8)", () => {
  it("a saved chat's follow-up question reaches the model with the document of the first turn", async () => {
    const first = await send({
      messages: [{ role: "user", content: "Summarise this report" }],
      file: { name: "report.pdf", type: "application/pdf", content: report },
    });
    expect(first.status).toBe(200);
    const one = await first.json();
    expect(one.chat_id).toBeTruthy();
    expect(one.document.name).toBe("report.pdf");

    const second = await send({
      chat_id: one.chat_id,
      messages: [...one.messages, { role: "user", content: "Which page talks about retention?" }],
      documents: [one.document],
    });
    expect(second.status).toBe(200);
    const two = await second.json();
    expect(two.chat_id).toBe(one.chat_id);
    const latest = basicLlm.requests.at(-1)!.messages.at(-1)!.content;
    expect(latest).toContain('<document name="report.pdf">');
    expect(latest).toContain("Hush quarterly privacy report");
    expect(two.messages.at(-1).content).toContain("The document begins: Hush quarterly privacy report");
    expect(two.context).toEqual({ omitted_messages: 0, omitted_documents: 0, latest_message_cut: false });
  });

  it("sends Pro to LLM_PRO_BASE_URL and Basic to the default provider", async () => {
    await setManualPro("carol@example.com", true);
    const pro = await send({ model: PRO, save_chat: false, messages: [{ role: "user", content: "A Pro question" }] });
    expect(pro.status).toBe(200);
    const basic = await send({ model: BASIC, save_chat: false, messages: [{ role: "user", content: "A Basic question" }] });
    expect(basic.status).toBe(200);
    expect(proLlm.requests.map((r) => [r.model, r.messages.at(-1)?.content])).toEqual([["openai/gpt-oss-120b", "A Pro question"]]);
    expect(basicLlm.requests.map((r) => [r.model, r.messages.at(-1)?.content])).toEqual([["openai/gpt-oss-20b", "A Basic question"]]);
  });
});
