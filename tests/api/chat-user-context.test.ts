import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { POST as chatSave } from "@/app/api/ns/chat_save/route";
import { GET as chatHistoryOne } from "@/app/api/ns/chat_history/[chatId]/route";
import { POST as vaultCreate } from "@/app/api/vault/route";
import { generateVaultKey, importVaultKey } from "@/lib/browser/vault/crypto";
import { openChat, passphraseMethod, recoveryMethod, sealTurn, type PlainMessage } from "@/lib/browser/vault/seal";
import { getConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { setManualPro } from "@/lib/server/manual-plan";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";

/**
 * The signed-in chat call with docs/issues.md #8's additions: a saved chat's follow-up keeps the document, and
 * the Pro model goes to its own provider (LLM_PRO_BASE_URL) while Basic goes to the default one.
 * Real route, real database, the real openai SDK against two fake OpenAI-compatible servers.
 */
let t: TestDb;
let basicLlm: FakeLlmServer;
let proLlm: FakeLlmServer;
let user: { id: string; cookie: string; key: CryptoKey };
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";
/** A PDF's text as the browser extracts it (lib/browser/pdf) and sends it as the turn's `document`. */
const report = "Hush quarterly privacy report.\n\nPage two: what Hush can see.\n\nPage three: the next review.";

function post(handler: (r: Request) => Promise<Response>, path: string, body: unknown) {
  const origin = new URL(getConfig().APP_URL).origin;
  return handler(
    new Request(`${origin}${path}`, {
      method: "POST",
      headers: { Origin: origin, Cookie: user.cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}

function send(body: Record<string, unknown>) {
  const origin = new URL(getConfig().APP_URL).origin;
  return chatUser(
    new Request(`${origin}/api/ns/chat_user`, {
      method: "POST",
      headers: { Origin: origin, Cookie: user.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ model: BASIC, chat_id: null, save_chat: true, ...body }),
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
  const raw = generateVaultKey();
  user = { id: u.id, cookie: await sessionCookieFor(u.id), key: await importVaultKey(raw) };
  const methods = [await passphraseMethod(raw, u.id, "carol paints violet lighthouses at noon"), (await recoveryMethod(raw, u.id)).method];
  expect((await post(vaultCreate, "/api/vault", { methods })).status).toBe(201);
});

afterAll(async () => {
  await t.cleanup();
  await Promise.all([basicLlm.close(), proLlm.close()]);
  for (const key of ["LLM_BASE_URL", "LLM_API_KEY", "LLM_PRO_BASE_URL", "LLM_PRO_API_KEY"]) delete process.env[key];
  resetConfigForTests();
});

beforeEach(() => {
  basicLlm.requests.length = 0;
  proLlm.requests.length = 0;
});

describe("POST /api/ns/chat_user (docs/issues.md #8)", () => {
  it("a saved chat's follow-up question reaches the model with the document of the first turn", async () => {
    const first = await send({
      messages: [{ role: "user", content: "Summarise this report" }],
      document: { name: "report.pdf", text: report },
    });
    expect(first.status).toBe(200);
    const one = await first.json();
    // The browser saves the turn, the document sealed with the message that carried it (vault).
    const chatId = crypto.randomUUID();
    const turn: PlainMessage[] = [{ ...one.messages[0], attachment: { name: "report.pdf", text: report } }, one.messages[1]];
    const sealed = await sealTurn({ key: user.key, userId: user.id, chatId, create: true, firstPosition: 0, messages: turn, title: "Summarise this report" });
    expect((await post(chatSave, "/api/ns/chat_save", sealed)).status).toBe(200);

    // Reopened: the browser decrypts the chat and sends its documents with the follow-up.
    const origin = new URL(getConfig().APP_URL).origin;
    const stored = await chatHistoryOne(new Request(`${origin}/api/ns/chat_history/${chatId}`, { headers: { Cookie: user.cookie } }), {
      params: Promise.resolve({ chatId }),
    });
    const reopened = await openChat(user.key, user.id, await stored.json());
    expect(reopened.documents).toEqual([{ name: "report.pdf", text: report }]);
    const second = await send({
      chat_id: chatId,
      messages: [...reopened.messages.map(({ role, content }) => ({ role, content })), { role: "user", content: "Which page talks about retention?" }],
      documents: reopened.documents,
    });
    expect(second.status).toBe(200);
    const two = await second.json();
    expect(two.chat_id).toBe(chatId);
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

  it("an image (docs/issues.md #23): 400 with the chat's sentence for a text-only model; the provider's image part for a model LLM_VISION_MODELS lists", async () => {
    const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const messages = [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: png } }] }];
    basicLlm.requests.length = 0;
    proLlm.requests.length = 0;
    const refused = await send({ model: PRO, save_chat: false, messages });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe("The Pro model cannot read images. Attach the text instead, or describe the image in your message.");
    process.env.LLM_VISION_MODELS = PRO;
    resetConfigForTests();
    try {
      const answered = await send({ model: PRO, save_chat: false, messages });
      expect(answered.status).toBe(200);
      expect(proLlm.requests.at(-1)?.messages.at(-1)).toEqual({ role: "user", content: "What is this?", images: [png] });
    } finally {
      delete process.env.LLM_VISION_MODELS;
      resetConfigForTests();
    }
    expect(basicLlm.requests).toHaveLength(0);
  });
});
