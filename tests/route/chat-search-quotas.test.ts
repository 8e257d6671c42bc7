import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM_PROMPT } from "@/lib/server/llm";
import { SEARCH_FAILED_PROMPT, SEARCH_SYSTEM_PROMPT } from "@/lib/shared/llm/search-prompt";
import { setEnv } from "../helpers/env";
import { ask, BASIC, engine, KAKAPO, llm, post, readSse, signedIn, setUpSearchRoute } from "./chat-search-setup";

/** docs/issues.md #40 and #50: web-search quotas, and search for a model without function calling (set-up: ./chat-search-setup.ts). */
setUpSearchRoute();

describe("web search quotas", () => {
  // First in the file: route calls have no socket peer, so every visitor here is the one unknown client.
  it("a visitor over SEARCH_PER_DAY_VISITOR is answered without searching, and the record says over_quota", async () => {
    setEnv({ SEARCH_PER_DAY_VISITOR: "2" });
    try {
      const headers = {};
      const statuses: string[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await (await post(ask(KAKAPO, { web_search: true }), headers)).json()).search.status);
      expect(statuses).toEqual(["ok", "ok", "over_quota"]);
      expect(engine.queries).toHaveLength(2);
      // A turn without search is not affected.
      expect((await post(ask(KAKAPO), headers)).status).toBe(200);
    } finally {
      setEnv({ SEARCH_PER_DAY_VISITOR: "10000" });
    }
  });

  it("a signed-in user's searches are counted per query, in the database beside the sends", async () => {
    setEnv({ SEARCH_PER_DAY_FREE: "1" });
    try {
      const { send, counters } = await signedIn();
      const first = await (await send(KAKAPO)).json();
      const second = await (await send(KAKAPO)).json();
      expect([first.search.status, second.search.status]).toEqual(["ok", "over_quota"]);
      expect(second.search.queries).toEqual([]);
      expect(await counters()).toEqual([
        ["u:ID", 2],
        ["u:ID:search", 1],
      ]);
    } finally {
      setEnv({ SEARCH_PER_DAY_FREE: undefined });
    }
  });

  it("the daily search quota counts each query the model writes, not each turn; refused queries are not sent", async () => {
    setEnv({ SEARCH_PER_DAY_FREE: "4", CHAT_MAX_TOOL_STEPS: "4" });
    try {
      const { send, counters } = await signedIn();
      // Three search steps of one query each (the fourth call is offered no tools): three searches in one turn.
      const first = await (await send("Kākāpō news [[fake:tools-forever]]")).json();
      expect(first.search).toMatchObject({ status: "ok", queries: Array(3).fill("Kākāpō news [[fake:tools-forever]]") });
      expect(await counters()).toEqual([
        ["u:ID", 1],
        ["u:ID:search", 3],
      ]);
      engine.queries.length = 0;
      llm.requests.length = 0;
      // One query left today: the first step runs, the second is refused, not sent, and web_search is offered no more.
      const second = await (await send("Kākāpō news [[fake:tools-forever]]")).json();
      expect(second.search).toMatchObject({ status: "over_quota", queries: ["Kākāpō news [[fake:tools-forever]]"] });
      expect(engine.queries).toHaveLength(1);
      expect(llm.requests.map((r) => r.tools)).toEqual([["web_search", "read_page"], ["web_search", "read_page"], ["read_page"]]);
      expect(await counters()).toEqual([
        ["u:ID", 2],
        ["u:ID:search", 4],
      ]);
    } finally {
      setEnv({ SEARCH_PER_DAY_FREE: undefined, CHAT_MAX_TOOL_STEPS: undefined });
    }
  });
});

describe("web search for a model without function calling (LLM_NO_FUNCTION_CALLING_MODELS)", () => {
  beforeAll(() => setEnv({ LLM_NO_FUNCTION_CALLING_MODELS: BASIC }));
  afterAll(() => setEnv({ LLM_NO_FUNCTION_CALLING_MODELS: undefined }));

  it("sends the user's message to SearXNG and gives the model the results before it, with no tools offered", async () => {
    const res = await post(ask(KAKAPO, { web_search: true }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(engine.queries).toEqual([KAKAPO]);
    expect(llm.requests).toHaveLength(1);
    const sent = llm.requests[0]!;
    expect(sent.tools).toEqual([]);
    expect(sent.messages[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
    expect(sent.messages[1]).toEqual({ role: "system", content: SEARCH_SYSTEM_PROMPT });
    const lastUser = sent.messages.at(-1)!.content;
    expect(lastUser).toMatch(/^<web_results>\n<result index="1" title="Kākāpō breeding season 2026 report" url="https:\/\/example\.org\/kakapo-season-2026">/);
    expect(lastUser.endsWith(`</web_results>\n\n${KAKAPO}`)).toBe(true);
    expect(body.search).toMatchObject({ queries: [KAKAPO], status: "ok" });
    expect(body.search.sources).toHaveLength(2);
    expect(body.messages.at(-1).content).toContain("From the web: The 2026 kākāpō breeding season produced 41 chicks");
  });

  it("a follow-up searches the user's message as it is", async () => {
    const messages = [
      { role: "user", content: "population of France in 2020" },
      { role: "assistant", content: "About 67 million people." },
      { role: "user", content: "and the year before?" },
    ];
    const body = await (await post({ messages, model: BASIC, web_search: true })).json();
    expect(engine.queries).toEqual(["and the year before?"]);
    expect(body.search.queries).toEqual(["and the year before?"]);
  });

  it("streams the search record before the first delta and again in done", async () => {
    const res = await post(ask(KAKAPO, { web_search: true }), { Accept: "text/event-stream" });
    const events = await readSse(res);
    expect(events[0]?.event).toBe("search");
    expect(events[0]?.data.queries).toEqual([KAKAPO]);
    expect(events.some((e) => e.event === "step")).toBe(false);
    expect(events.at(-1)?.event).toBe("done");
    expect(events.at(-1)?.data.search.sources).toHaveLength(2);
  });

  it("an engine that fails answers without results, says so to the model, and records the failure", async () => {
    const question = "Anything new? [[searx:down]]";
    const body = await (await post(ask(question, { web_search: true }))).json();
    expect(body.search).toMatchObject({ queries: [question], sources: [], status: "failed" });
    expect(llm.requests.at(-1)!.messages[1]).toEqual({ role: "system", content: SEARCH_FAILED_PROMPT });
  });
});
