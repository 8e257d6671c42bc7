import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDevEnclave, type DevEnclave } from "@/dev/enclave";
import { enclaveVerificationCache } from "@/lib/browser/confidential/attestation";
import { sendConfidentialTurn } from "@/lib/browser/confidential/turn";
import { resetConfigForTests } from "../helpers/process-state";
import { confidentialPublicConfig } from "@/lib/server/llm/confidential-models";
import { closeQuota } from "@/lib/server/quota";
import { closeRateLimits } from "@/lib/server/rate-limit";
import type { ConfidentialPublicConfig } from "@/lib/shared/confidential/protocol";
import { startFakeSearxng, type FakeSearxng } from "../helpers/fake-searxng";
import { DEV_PAGES } from "@/dev/searxng";
import { setupTestDb, type TestDb } from "../db/setup-db";
import { startTamperingRelay, type TamperingRelay } from "./helpers";
import { serveRelay } from "./relay-server";

/**
 * docs/issues.md #51, the confidential path: "read <URL>" through the browser's client, Hush's real relay and the
 * development enclave. The enclave's tool loop (dev/enclave-tools.ts) reads the page from its own process under the
 * standard path's guard (lib/server/read-page, READ_PAGE_ALLOW_HOSTS), discloses the read with the router's
 * `open_page` marker inside the ciphertext, and the answer quotes it. A recording proxy in front of Hush's relay sees
 * every byte it is sent and answers: no URL, path or page text among them.
 */
const PAGE_TEXT = "Kererū fledglings left the nest in the third week of November, the survey found.";
const ARTICLE = `<!doctype html><html><head><title>Kererū survey</title></head><body><nav>NAV-TEXT</nav><article><h1>Kererū survey</h1>
<p>${PAGE_TEXT}</p><p>${"Volunteers counted birds in forty gardens every morning for a month. ".repeat(8)}</p></article></body></html>`;
const PATH = "/kereru-survey-report";

let t: TestDb;
let engine: FakeSearxng;
let enclave: DevEnclave;
let hush: Awaited<ReturnType<typeof serveRelay>>;
let proxy: TamperingRelay;
let pages: http.Server;
let base = "";
let canary: http.Server;
let canaryHits = 0;
const served: string[] = [];

function configure() {
  Object.assign(process.env, {
    CONFIDENTIAL_BASE_URL: enclave.url,
    CONFIDENTIAL_TRUST: "development",
    CONFIDENTIAL_MODELS: "llama3-8b-8192",
    QUOTA_VISITOR_PER_DAY: "10000",
    SEARCH_PER_DAY_VISITOR: "10000",
    CONFIDENTIAL_SEARCH_PII_CHECK: "0",
    READ_PAGE_ALLOW_HOSTS: `${new URL(base).host},${new URL(engine.url).host}`,
  });
  resetConfigForTests();
}

/** The page's public config, with the relay paths pointing at the recording proxy in front of Hush. */
function browserConfig(): ConfidentialPublicConfig {
  const config = confidentialPublicConfig()!;
  return { ...config, paths: { attestation: `${proxy.url}/api/confidential/attestation`, chat: `${proxy.url}/api/confidential/chat` } } as ConfidentialPublicConfig;
}

const input = (text: string, onSearch?: (p: unknown) => void) => ({
  endpoint: "chatVisitor" as const,
  messages: [{ role: "user" as const, content: text }],
  model: "llama3-8b-8192",
  file: null,
  documents: [],
  chatId: null,
  saveChat: false,
  signal: new AbortController().signal,
  onDelta: () => undefined,
  webSearch: true,
  ...(onSearch ? { onSearch } : {}),
});

/** `text` in clear, base64 or hex anywhere in what crossed the proxy. */
function crossed(text: string): boolean {
  const seen = Buffer.concat(proxy.seen);
  return [Buffer.from(text), Buffer.from(Buffer.from(text).toString("base64").slice(0, 12)), Buffer.from(Buffer.from(text).toString("hex"))].some((needle) =>
    seen.includes(needle),
  );
}

beforeAll(async () => {
  pages = http.createServer((req, res) => {
    served.push(req.url ?? "");
    if (req.url === PATH) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  canary = http.createServer((_req, res) => res.end("canary"));
  canary.on("connection", () => void (canaryHits += 1));
  await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
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
  for (const s of [pages, canary]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  for (const k of ["CONFIDENTIAL_BASE_URL", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_MODELS", "QUOTA_VISITOR_PER_DAY", "SEARCH_PER_DAY_VISITOR", "CONFIDENTIAL_SEARCH_PII_CHECK", "READ_PAGE_ALLOW_HOSTS"]) {
    delete process.env[k];
  }
  resetConfigForTests();
});

beforeEach(() => {
  enclaveVerificationCache.clear();
  proxy.seen.length = 0;
  engine.queries.length = 0;
  served.length = 0;
  configure();
});

describe("reading a page on the confidential path", () => {
  it("read <allowed URL>: the enclave reads the page, the answer quotes it, the read is disclosed, and Hush's relay sees none of it", async () => {
    const url = `${base}${PATH}`;
    const progress: unknown[] = [];
    const result = await sendConfidentialTurn(input(`read ${url}`, (p) => progress.push(p)), browserConfig());
    const answer = result.messages.at(-1)!.content;
    // The enclave, not Hush's server, fetched the page; nothing was searched.
    expect(served).toEqual([PATH]);
    expect(engine.queries).toEqual([]);
    expect(answer).toContain("From the page:");
    expect(answer).toContain("Kererū fledglings left the nest");
    expect(answer).not.toContain("NAV-TEXT");
    expect(answer).not.toContain("tinfoil-event");
    // Disclosed as the standard path does: the reading line while it ran, then the record's page.
    expect(progress).toEqual([{ page: `${new URL(base).host}${PATH}` }, null]);
    expect(result.search).toEqual({ via: "enclave", engine: new URL(enclave.url).host, queries: [], sources: [], status: "ok", pages: [{ url, status: "ok" }] });

    expect(proxy.seen.length).toBeGreaterThanOrEqual(4);
    for (const secret of [url, PATH, "kereru-survey", "Kererū", PAGE_TEXT.slice(0, 40), "fledglings", "Volunteers counted", "open_page", "From the page"]) {
      expect(crossed(secret), secret).toBe(false);
    }
  });

  it("a link to a host that is not allowed is refused inside the enclave: the canary receives nothing and the answer says it was not read", async () => {
    const url = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/secret`;
    const result = await sendConfidentialTurn(input(`read ${url}`), browserConfig());
    expect(canaryHits).toBe(0);
    expect(result.search?.pages).toEqual([{ url, status: "refused" }]);
    expect(result.messages.at(-1)!.content).not.toContain("From the page:");
    expect(crossed("/secret")).toBe(false);
  });

  it("as `npm run dev` serves it: the SearXNG stand-in's own page (dev/searxng.ts DEV_PAGES), read by the development responder", async () => {
    expect(DEV_PAGES["kakapo-season-2026"]).toBeDefined();
    const url = `${engine.url}/pages/kakapo-season-2026`;
    const result = await sendConfidentialTurn(input(`summarise ${url}`), browserConfig());
    expect(result.messages.at(-1)!.content).toMatch(/From the page: .*41 chicks on Whenua Hou/);
    expect(result.search?.pages).toEqual([{ url, status: "ok" }]);
    expect(crossed("kakapo-season-2026")).toBe(false);
  });

  it("with the toggle off read_page is not offered and nothing is fetched", async () => {
    const result = await sendConfidentialTurn({ ...input(`read ${base}${PATH}`), webSearch: false }, browserConfig());
    expect(served).toEqual([]);
    expect(result.search).toBeUndefined();
  });
});
