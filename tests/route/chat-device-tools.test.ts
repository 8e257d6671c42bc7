import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readSse } from "../helpers/sse";
import { POST } from "@/app/api/ns/chat/route";
import { POST as chatUser } from "@/app/api/ns/chat_user/route";
import { getConfig } from "@/lib/server/config";
import { closeQuota, flushQuota, utcDay } from "@/lib/server/quota";
import { CONTINUATION_TTL_MS, signContinuation } from "@/lib/server/chat/continuation";
import { DEVICE_TIME_TOOL_NAME, deviceTimeResult, RUN_CODE_TOOL_NAME, runCodeSource } from "@/lib/shared/llm/device-tools";
import { startFakeLlmServer, type FakeLlmServer } from "../helpers/fake-llm-server";
import { createTestUser, sessionCookieFor } from "../helpers/auth";
import { setEnv } from "../helpers/env";
import { setupTestDb, type TestDb } from "../db/setup-db";

/**
 * docs/issues.md #50, the device-tool round trip on the standard path: the real routes against the fake LLM over
 * HTTP, which calls `device_time` by lib/shared/llm/tools.ts scriptedToolCall when offered it. The answer pauses with
 * `event: tool_calls` and a signed token; the continuation carries the result, is not counted again, and a forged,
 * replayed, expired or over-budget token is refused with 4xx JSON and counts nothing (the database's counter).
 */
let llm: FakeLlmServer;
let t: TestDb;
const BASIC = "llama3-8b-8192";
const QUESTION = "What time is it on my device?";
const RESULT = deviceTimeResult(new Date(2026, 11, 2, 7, 5, 0), "Europe/Paris");

type Pause = { tool_calls: { id: string; type: "function"; function: { name: string; arguments: string } }[]; token: string };

const ask = (extra: Record<string, unknown> = {}) => ({ messages: [{ role: "user", content: QUESTION }], model: BASIC, tools: [DEVICE_TIME_TOOL_NAME], ...extra });
const answered = (pause: Pause) => [{ tool_calls: pause.tool_calls, results: pause.tool_calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: RESULT })) }];

async function signedIn() {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  const send = (body: unknown) =>
    chatUser(
      new Request(`${getConfig().APP_URL}/api/ns/chat_user`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", cookie, origin: getConfig().APP_URL },
        body: JSON.stringify(body),
      }),
    );
  const counted = async () => {
    await flushQuota();
    const rows = await t.db.quotaCounter.findMany({ where: { day: utcDay(), subject: `u:${user.id}` } });
    return rows[0]?.count ?? 0;
  };
  return { user, send, counted };
}

beforeAll(async () => {
  llm = await startFakeLlmServer();
  t = await setupTestDb();
  setEnv({ LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: "test", GROQ_API_KEY: undefined });
});

afterAll(async () => {
  await closeQuota();
  await t.cleanup();
  await llm.close();
  setEnv({ LLM_BASE_URL: undefined, LLM_API_KEY: undefined, QUOTA_VISITOR_PER_DAY: undefined, CHAT_MAX_TOOL_STEPS: undefined });
});

beforeEach(() => {
  llm.requests.length = 0;
});

describe("a device tool's round trip, standard path", () => {
  it("a visitor: the turn pauses with the call and a token, the continuation answers from the device's result and is not counted", async () => {
    // First in the file: route calls have no socket peer, so every visitor here is the one unknown client.
    setEnv({ QUOTA_VISITOR_PER_DAY: "1" });
    const post = (body: unknown) =>
      POST(new Request("http://localhost/api/ns/chat", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) }));
    const first = await post(ask());
    expect(first.status).toBe(200);
    const pause = (await first.json()) as Pause;
    expect(pause.tool_calls).toEqual([{ id: expect.any(String), type: "function", function: { name: DEVICE_TIME_TOOL_NAME, arguments: "{}" } }]);
    expect(pause.token).toMatch(/^c1\./);
    // Offered beside nothing else: no web search was asked for.
    expect(llm.requests[0]!.tools).toEqual([DEVICE_TIME_TOOL_NAME]);

    const second = await post(ask({ continuation: { token: pause.token, steps: answered(pause) } }));
    expect(second.status).toBe(200);
    const result = (await second.json()) as { messages: { role: string; content: string }[] };
    expect(result.messages.at(-1)!.content).toContain(`On your device: ${RESULT}`);
    // The model got its call and the result back, OpenAI's way.
    const messages = llm.requests[1]!.messages;
    expect(messages.at(-1)).toMatchObject({ role: "tool", content: RESULT });
    // The day's one message was the first request's: a new turn is now refused.
    expect((await post(ask())).status).toBe(429);
    setEnv({ QUOTA_VISITOR_PER_DAY: "10000" });
  });

  it("signed in, over SSE: event tool_calls, then the continuation's done; the message counted once", async () => {
    const { send, counted } = await signedIn();
    const events = await readSse(await send(ask({ chat_id: null })));
    expect(events.map((e) => e.event)).toEqual(["tool_calls"]);
    const pause = events[0]!.data as unknown as Pause;
    expect(await counted()).toBe(1);

    const done = await readSse(await send(ask({ chat_id: null, continuation: { token: pause.token, steps: answered(pause) } })));
    expect(done.at(-1)!.event).toBe("done");
    expect(done.map((e) => (e.event === "delta" ? String(e.data.text) : "")).join("")).toContain("On your device:");
    expect(await counted()).toBe(1);
  });

  it("forged, replayed, expired and over-budget tokens: 4xx JSON { error }, nothing counted", async () => {
    const { user, send, counted } = await signedIn();
    const pause = (await readSse(await send(ask({ chat_id: null }))))[0]!.data as unknown as Pause;
    expect(await counted()).toBe(1);
    const steps = answered(pause);
    const calls = pause.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
    const refused = async (token: string, status: number, stepsSent: unknown = steps) => {
      const response = await send(ask({ chat_id: null, continuation: { token, steps: stepsSent } }));
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(typeof ((await response.json()) as { error?: unknown }).error).toBe("string");
    };

    const [head, claims, mac] = pause.token.split(".");
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(claims!, "base64url").toString()), step: 2 })).toString("base64url");
    await refused(`${head}.${altered}.${mac}`, 403);
    // Results for other calls than the token's.
    await refused(pause.token, 403, [{ ...steps[0]!, tool_calls: [{ ...steps[0]!.tool_calls[0]!, function: { name: DEVICE_TIME_TOOL_NAME, arguments: '{"x":1}' } }] }]);
    // Another user's token.
    const other = signContinuation({ caller: "u:00000000-0000-4000-8000-000000000000", turn: null, step: 1, calls });
    await refused(other.token, 403);
    const expired = signContinuation({ caller: `u:${user.id}`, turn: null, step: 1, calls, now: Date.now() - CONTINUATION_TTL_MS - 1 });
    await refused(expired.token, 400);
    const overBudget = signContinuation({ caller: `u:${user.id}`, turn: null, step: getConfig().CHAT_MAX_TOOL_STEPS, calls });
    await refused(overBudget.token, 400);
    expect(llm.requests).toHaveLength(1);

    // The real one works once; sent again it is a replay.
    expect((await send(ask({ chat_id: null, continuation: { token: pause.token, steps } }))).status).toBe(200);
    await refused(pause.token, 409);
    expect(await counted()).toBe(1);
  });

  it("run_code (docs/issues.md #51): the call carries the program; only its result comes back; CODE_EXECUTION=off never offers it", async () => {
    const { send } = await signedIn();
    const csv = { name: "scores.csv", text: "a,b\n1,1.5\n2,2.25\n3,10\n" };
    const question = { messages: [{ role: "user", content: "What is the mean of column b?" }], model: BASIC, tools: [RUN_CODE_TOOL_NAME], chat_id: null, document: csv };
    const pause = (await readSse(await send(question)))[0]!.data as unknown as Pause;
    expect(pause.tool_calls[0]!.function.name).toBe(RUN_CODE_TOOL_NAME);
    expect(runCodeSource(pause.tool_calls[0]!.function.arguments)).toContain('open("/data/scores.csv"');
    const result = "The code ran on the user's device.\n\nOutput:\n4.583333333333333\n";
    const steps = [{ tool_calls: pause.tool_calls, results: [{ role: "tool", tool_call_id: pause.tool_calls[0]!.id, content: result }] }];
    const done = await readSse(await send({ ...question, continuation: { token: pause.token, steps } }));
    expect(done.map((e) => (e.event === "delta" ? String(e.data.text) : "")).join("")).toContain("Output: 4.583333333333333");
    expect(llm.requests[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: result });

    setEnv({ CODE_EXECUTION: "off" });
    try {
      llm.requests.length = 0;
      const events = await readSse(await send(question));
      expect(events.at(-1)!.event).toBe("done");
      expect(llm.requests.map((r) => r.tools)).toEqual([[]]);
    } finally {
      setEnv({ CODE_EXECUTION: undefined });
    }
  });

  it("CHAT_MAX_TOOL_STEPS counts model calls across the whole message: the continuation's call is the last, offered no tools", async () => {
    setEnv({ CHAT_MAX_TOOL_STEPS: "2" });
    try {
      const { send } = await signedIn();
      const pause = (await readSse(await send(ask({ chat_id: null }))))[0]!.data as unknown as Pause;
      const events = await readSse(await send(ask({ chat_id: null, continuation: { token: pause.token, steps: answered(pause) } })));
      expect(events.at(-1)!.event).toBe("done");
      expect(llm.requests.map((r) => r.tools)).toEqual([[DEVICE_TIME_TOOL_NAME], []]);
    } finally {
      setEnv({ CHAT_MAX_TOOL_STEPS: undefined });
    }
  });
});
