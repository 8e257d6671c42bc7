import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { sendConfidentialTurn } from "@/lib/browser/confidential/turn";
import { resetConfigForTests } from "../helpers/process-state";
import { confidentialPublicConfig } from "@/lib/server/llm/confidential-models";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import type { ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { SEARCH_CORPUS, startFakeSearxng, type FakeSearxng } from "../helpers/fake-searxng";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { startTamperingRelay, type TamperingRelay } from "./helpers";
import { serveRelay } from "./relay-server";

/**
 * docs/issues.md #40, the confidential path: the browser's client (lib/browser/confidential/turn.ts) with "Search the
 * web" on puts Tinfoil's router fields (`web_search_options`, `pii_check_options`) inside the EHBP body; Hush's real
 * relay route (served over HTTP here) forwards it to the development enclave, which queries the fake SearXNG from
 * its own process and answers with the router's markers and citations. A recording proxy in front of Hush's relay
 * sees every byte the relay is sent and answers: no query, result or answer text among them.
 */
let t: TestDb;
let engine: FakeSearxng;
let enclave: DevEnclave;
let hush: Awaited<ReturnType<typeof serveRelay>>;
let proxy: TamperingRelay;
const KAKAPO = "How many kākāpō chicks hatched in the 2026 breeding season?";

function configure(extra: Record<string, string> = {}) {
  Object.assign(process.env, {
    CONFIDENTIAL_BASE_URL: enclave.url,
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_MODELS: "llama3-8b-8192",
    QUOTA_VISITOR_PER_DAY: "10000",
    SEARCH_PER_DAY_VISITOR: "10000",
    CONFIDENTIAL_SEARCH_PII_CHECK: "0",
    ...extra,
  });
  resetConfigForTests();
}

/** The page's public config, with the relay paths pointing at the recording proxy in front of Hush. */
function browserConfig(): ConfidentialPublicConfig {
  const config = confidentialPublicConfig()!;
  return { ...config, paths: { attestation: `${proxy.url}/api/confidential/attestation`, chat: `${proxy.url}/api/confidential/chat` } } as ConfidentialPublicConfig;
}

const input = (text: string, deltas: string[] = []) => ({
  endpoint: "chatVisitor" as const,
  messages: [{ role: "user" as const, content: text }],
  model: "llama3-8b-8192",
  file: null,
  documents: [],
  chatId: null,
  saveChat: false,
  signal: new AbortController().signal,
  onDelta: (d: string) => deltas.push(d),
  webSearch: true,
});

/** `text` in clear, base64 or hex anywhere in what crossed the proxy. */
function crossed(text: string): boolean {
  const seen = Buffer.concat(proxy.seen);
  return [Buffer.from(text), Buffer.from(Buffer.from(text).toString("base64").slice(0, 12)), Buffer.from(Buffer.from(text).toString("hex"))].some((needle) =>
    seen.includes(needle),
  );
}

beforeAll(async () => {
  engine = await startFakeSearxng({ port: 0 });
  enclave = await startDevEnclave({ port: 0, chunkDelayMs: 0, searxngUrl: engine.url });
  t = await setupTestDb();
  hush = await serveRelay();
  proxy = await startTamperingRelay(hush.url);
  configure();
});

afterAll(async () => {
  await closeQuota();
  await closeRateLimits();
  await t.cleanup();
  await proxy.close();
  await hush.close();
  await enclave.close();
  await engine.close();
  for (const k of ["CONFIDENTIAL_BASE_URL", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_MODELS", "QUOTA_VISITOR_PER_DAY", "SEARCH_PER_DAY_VISITOR", "CONFIDENTIAL_SEARCH_PII_CHECK"]) {
    delete process.env[k];
  }
  resetConfigForTests();
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  proxy.seen.length = 0;
  engine.queries.length = 0;
  configure();
});

describe("web search on the confidential path", () => {
  it("searches inside the enclave, answers with numbered citations and Sources, and Hush's relay sees none of it", async () => {
    const deltas: string[] = [];
    const result = await sendConfidentialTurn(input(KAKAPO, deltas), browserConfig());
    const answer = result.messages.at(-1)!.content;
    // The enclave, not Hush's server, queried the engine.
    expect(engine.queries).toEqual([KAKAPO]);
    expect(result.search).toEqual({
      via: "enclave",
      engine: new URL(enclave.url).host,
      queries: [KAKAPO],
      sources: [
        { url: SEARCH_CORPUS[0]!.url, title: SEARCH_CORPUS[0]!.title },
        { url: SEARCH_CORPUS[1]!.url, title: SEARCH_CORPUS[1]!.title },
      ],
      status: "ok",
    });
    // The router's markers are taken out and its citation links become [n] markers.
    expect(answer).toContain("The 2026 kākāpō breeding season produced 41 chicks on Whenua Hou");
    expect(answer).toMatch(/41 chicks[^\n]*\[1\]/);
    expect(answer).not.toContain("tinfoil-event");
    expect(answer).not.toContain("](https://");
    expect(deltas.join("")).toBe(answer);

    expect(proxy.seen.length).toBeGreaterThanOrEqual(4);
    for (const secret of [KAKAPO, "kākāpō", "Whenua Hou", SEARCH_CORPUS[0]!.title, SEARCH_CORPUS[0]!.url, "41 chicks", "You asked", "tinfoil.web_search_call"]) {
      expect(crossed(secret), secret).toBe(false);
    }
  });

  it("without an upstream model the development responder writes the query by scriptedToolCall: a follow-up carries the earlier topic", async () => {
    const followUp = {
      ...input(KAKAPO),
      messages: [
        { role: "user" as const, content: KAKAPO },
        { role: "assistant" as const, content: "41 chicks hatched that season." },
        { role: "user" as const, content: "and the year before?" },
      ],
    };
    const result = await sendConfidentialTurn(followUp, browserConfig());
    expect(engine.queries).toEqual([`${KAKAPO} and the year before?`]);
    expect(result.search).toMatchObject({ queries: [`${KAKAPO} and the year before?`], status: "ok" });
    expect(result.messages.at(-1)!.content).toMatch(/41 chicks[^\n]*\[1\]/);
  });

  it("sends pii_check_options with CONFIDENTIAL_SEARCH_PII_CHECK=1: a query with personal data the user's latest message does not hold never reaches the engine", async () => {
    const followUp = {
      ...input(KAKAPO),
      messages: [
        { role: "user" as const, content: "Who is jane.doe@example.com on the kākāpō team?" },
        { role: "assistant" as const, content: "I do not know." },
        { role: "user" as const, content: "and her phone?" },
      ],
    };
    const written = "Who is jane.doe@example.com on the kākāpō team? and her phone?";
    configure({ CONFIDENTIAL_SEARCH_PII_CHECK: "1" });
    const config = browserConfig();
    expect(config.searchPiiCheck).toBe(true);
    const result = await sendConfidentialTurn(followUp, config);
    expect(engine.queries).toEqual([]);
    expect(result.search).toMatchObject({ via: "enclave", queries: [written], sources: [], status: "blocked" });
    // The user's own message naming the address: they asked to search for it (lib/shared/search/personal-data.ts).
    await sendConfidentialTurn(input("Who is jane.doe@example.com on the kākāpō team?"), browserConfig());
    expect(engine.queries).toEqual(["Who is jane.doe@example.com on the kākāpō team?"]);
    // Without the check the follow-up is searched.
    configure({ CONFIDENTIAL_SEARCH_PII_CHECK: "0" });
    await sendConfidentialTurn(followUp, browserConfig());
    expect(engine.queries).toHaveLength(2);
  });

  it("over SEARCH_PER_DAY_VISITOR the relay refuses the search and the turn is answered without it", async () => {
    configure({ SEARCH_PER_DAY_VISITOR: "1" });
    // One visitor for both turns.
    proxy.options.requestHeaders = (headers) => headers.set("x-test-peer", "203.0.113.77");
    try {
      const first = await sendConfidentialTurn(input(KAKAPO), browserConfig());
      expect(first.search?.status).toBe("ok");
      const second = await sendConfidentialTurn(input(KAKAPO), browserConfig());
      expect(second.search).toMatchObject({ status: "over_quota", queries: [], sources: [] });
      expect(second.messages.at(-1)!.content).toContain("You asked");
      expect(engine.queries).toHaveLength(1);
    } finally {
      proxy.options.requestHeaders = undefined;
    }
  });

  it("a client that drops X-Hush-Web-Search but keeps the router's opt-in is still counted (docs/issues.md #54)", async () => {
    configure({ SEARCH_PER_DAY_VISITOR: "3" });
    const optIns: (string | null)[] = [];
    proxy.options.requestHeaders = (headers) => {
      headers.set("x-test-peer", "203.0.113.78");
      headers.delete("x-hush-web-search");
      if (headers.get("x-hush-model")) optIns.push(headers.get("x-tinfoil-events"));
    };
    try {
      const results = [];
      for (let i = 0; i < 6; i++) results.push(await sendConfidentialTurn(input(KAKAPO), browserConfig()));
      // The router's opt-in rode every declared turn; past the third the relay refused it, as it refuses ours.
      expect(optIns.filter((h) => h === "web_search").length).toBeGreaterThanOrEqual(6);
      expect(results.map((r) => r.search?.status)).toEqual(["ok", "ok", "ok", "over_quota", "over_quota", "over_quota"]);
      expect(engine.queries).toHaveLength(3);
    } finally {
      proxy.options.requestHeaders = undefined;
    }
  });

  it("with the toggle off no query reaches the engine", async () => {
    const result = await sendConfidentialTurn({ ...input(KAKAPO), webSearch: false }, browserConfig());
    expect(result.search).toBeUndefined();
    expect(engine.queries).toEqual([]);
  });
});
