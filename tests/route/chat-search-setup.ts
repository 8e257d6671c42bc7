import { afterAll, beforeAll, beforeEach, vi } from "vitest";
import { POST } from "@/app/api/ns/chat/route";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { getConfig } from "@/lib/server/config";
import { closeQuota, flushQuota, utcDay } from "@/lib/server/quota";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { startFakeSearxng, type FakeSearxng } from "../helpers/fake-searxng";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { setEnv } from "../helpers/env";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * The set-up of the web-search route tests (docs/issues.md #40 and #50, the standard path): POST /api/ns/chat and
 * /api/ns/chat_user with `web_search: true`, the real route handlers and SearXNG client against the fake SearXNG
 * (dev/searxng.ts, a fixed corpus over HTTP) and the fake LLM over HTTP (which calls the web_search tool by
 * lib/shared/llm/tools.ts scriptedToolCall when offered it). Nothing is mocked. Both default models call functions;
 * LLM_NO_FUNCTION_CALLING_MODELS turns it off for one. `llm`, `engine` and `t` are set by `setUpSearchRoute`'s hooks.
 */
export let llm: FakeLlmServer;
export let engine: FakeSearxng;
export let t: TestDb;
export const BASIC = "llama3-8b-8192";
export const KAKAPO = "How many kākāpō chicks hatched in the 2026 breeding season?";

export const ask = (content: string, extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content }], model: BASIC, ...extra });

/** POST /api/ns/chat with `body` as JSON. */
export function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  return POST(
    new Request("http://localhost/api/ns/chat", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: JSON.stringify(body),
      signal,
    }),
  );
}

/**
 * The browser's `sendChat` (lib/browser/chat/send-turn.ts) as a visitor with "Search the web" on, its request to
 * /api/ns/chat going to the route handler and the server's own calls (SearXNG, pages) out as they are. Returns
 * the answer's text, every search-progress value handed to the chat, and the turn's result.
 */
export async function sendChatThroughRoute(content: string) {
  const serverFetch = globalThis.fetch;
  vi.stubGlobal("fetch", (url: string | URL, init: RequestInit) =>
    String(url) === "/api/ns/chat"
      ? post(JSON.parse(init.body as string), { ...(init.headers as Record<string, string>) }, init.signal ?? undefined)
      : serverFetch(url, init),
  );
  try {
    const { sendChat } = await import("@/lib/browser/chat/send-turn");
    const progress: unknown[] = [];
    let text = "";
    const result = await sendChat({
      endpoint: "chatVisitor",
      messages: [{ role: "user", content }],
      model: BASIC,
      file: null,
      documents: [],
      chatId: null,
      saveChat: false,
      signal: new AbortController().signal,
      onDelta: (piece) => (text += piece),
      webSearch: true,
      onSearch: (p) => progress.push(p),
    });
    return { text, progress, result };
  } finally {
    vi.unstubAllGlobals();
  }
}

/** A signed-in user's `send` (POST /api/ns/chat_user) and today's quota `counters` of that user. */
export async function signedIn() {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  const send = (content: string, web_search = true) =>
    chatUser(
      new Request(`${getConfig().APP_URL}/api/ns/chat_user`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie, origin: getConfig().APP_URL },
        body: JSON.stringify(ask(content, { web_search, chat_id: null })),
      }),
    );
  const counters = async () => {
    await flushQuota();
    const rows = await t.db.quotaCounter.findMany({ where: { day: utcDay(), subject: { startsWith: `u:${user.id}` } }, orderBy: { subject: "asc" } });
    return rows.map((r) => [r.subject.replace(user.id, "ID"), r.count]);
  };
  return { send, counters };
}

export { readSse } from "../helpers/sse";

/** Start the fake LLM, the fake SearXNG and a test database for this file, with the search settings; clear records per test. */
export function setUpSearchRoute(): void {
  beforeAll(async () => {
    llm = await startFakeLlmServer();
    engine = await startFakeSearxng({ port: 0 });
    t = await setupTestDb();
    setEnv({
      LLM_BASE_URL: `${llm.url}/v1`,
      LLM_API_KEY: "test",
      GROQ_API_KEY: undefined,
      SEARXNG_URL: engine.url,
      SEARCH_TIMEOUT_MS: "500",
      QUOTA_VISITOR_PER_DAY: "10000",
      SEARCH_PER_DAY_VISITOR: "10000",
    });
  });

  afterAll(async () => {
    await closeQuota();
    await t.cleanup();
    await llm.close();
    await engine.close();
    setEnv({ LLM_BASE_URL: undefined, LLM_API_KEY: undefined, SEARXNG_URL: undefined, SEARCH_TIMEOUT_MS: undefined, QUOTA_VISITOR_PER_DAY: undefined, SEARCH_PER_DAY_VISITOR: undefined });
  });

  beforeEach(() => {
    llm.requests.length = 0;
    engine.queries.length = 0;
  });
}
