import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as attestation } from "@/app/api/confidential/attestation/route";
import { POST as chat } from "@/app/api/confidential/chat/route";
import { ConfigError, describeDefaults, parseConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { confidentialPublicConfig, enclaveModelId, isConfidentialModel } from "@/lib/server/llm/confidential-models";
import { CONFIDENTIAL_PATHS } from "@/lib/shared/confidential/protocol";
import { resetAttestationCacheForTests } from "@/lib/server/confidential/attestation";
import { parseUsageMetrics } from "@/lib/server/confidential/usage";
import { startFakeEnclave, type FakeEnclave } from "./upstream";
import { ATTESTATION_LIMIT } from "@/lib/server/confidential/attestation";
import { fromPeer } from "../helpers/peer";

/** GET /api/confidential/attestation from client `address`. */
const attest = (address = "192.0.2.1") => attestation(new Request("http://127.0.0.1:3000/api/confidential/attestation", { headers: fromPeer(address) }));

/**
 * The confidential settings (lib/server/config.ts), the browser-safe subset a page hands the client, the
 * usage header format, and GET /api/confidential/attestation against a local server playing the
 * enclave.
 */
const PRODUCTION = {
  NODE_ENV: "production",
  ENCRYPTION_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
  NEXTAUTH_SECRET: "x".repeat(40),
  APP_URL: "https://hush.example",
};

describe("CONFIDENTIAL_* settings", () => {
  it("production start refuses development trust without the explicit override, and names it", () => {
    const env = { ...PRODUCTION, CONFIDENTIAL_BASE_URL: "https://enclave.example", CONFIDENTIAL_TRUST: "development" };
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(/CONFIDENTIAL_TRUST=development is refused in production.*CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION=1/s);
    const allowed = parseConfig({ ...env, CONFIDENTIAL_ALLOW_DEVELOPMENT_IN_PRODUCTION: "1" });
    expect(allowed.confidential).toMatchObject({ trust: "development", host: "enclave.example" });
    // `next build` serves nothing: the refusal is at start.
    expect(() => parseConfig({ ...env, NEXT_PHASE: "phase-production-build" })).not.toThrow();
  });

  it("production trust needs CONFIDENTIAL_CONFIG_REPO; with it, every model confidential needs no plaintext provider", () => {
    const env = { ...PRODUCTION, CONFIDENTIAL_BASE_URL: "https://enclave.example" };
    expect(() => parseConfig(env)).toThrow(/CONFIDENTIAL_CONFIG_REPO/);
    const config = parseConfig({ ...env, CONFIDENTIAL_CONFIG_REPO: "tinfoilsh/confidential-model-router", CONFIDENTIAL_API_KEY: "tk_123" });
    expect(config.confidential).toMatchObject({
      origin: "https://enclave.example",
      trust: "production",
      configRepo: "tinfoilsh/confidential-model-router",
      models: ["llama3-8b-8192", "llama3-70b-8192"],
      apiKeys: { "llama3-8b-8192": "tk_123", "llama3-70b-8192": "tk_123" },
      embedded: false,
    });
    // Only the Basic model confidential: Pro still needs a provider.
    expect(() => parseConfig({ ...env, CONFIDENTIAL_CONFIG_REPO: "o/r", CONFIDENTIAL_MODELS: "llama3-8b-8192" })).toThrow(/GROQ_API_KEY or LLM_BASE_URL/);
    expect(() => parseConfig({ ...env, CONFIDENTIAL_CONFIG_REPO: "not a repo" })).toThrow(/owner\/name/);
  });

  it("the enclave origin: https in production except loopback, an origin only", () => {
    const base = { ...PRODUCTION, CONFIDENTIAL_CONFIG_REPO: "o/r" };
    expect(() => parseConfig({ ...base, CONFIDENTIAL_BASE_URL: "http://enclave.example" })).toThrow(/https/);
    expect(parseConfig({ ...base, CONFIDENTIAL_BASE_URL: "http://127.0.0.1:8788" }).confidential?.origin).toBe("http://127.0.0.1:8788");
    for (const url of ["https://enclave.example/v1", "https://enclave.example/?x=1", "https://user:pw@enclave.example"]) {
      expect(() => parseConfig({ ...base, CONFIDENTIAL_BASE_URL: url })).toThrow(/origin only/);
    }
    expect(parseConfig({ ...base, CONFIDENTIAL_BASE_URL: "https://enclave.example/" }).confidential?.origin).toBe("https://enclave.example");
  });

  it("CONFIDENTIAL_MODELS is checked against the model table", () => {
    const base = { NODE_ENV: "test", CONFIDENTIAL_BASE_URL: "http://127.0.0.1:1", CONFIDENTIAL_TRUST: "development" };
    expect(() => parseConfig({ ...base, CONFIDENTIAL_MODELS: "llama3-8b-8192,gpt-4o" })).toThrow(/unknown model code gpt-4o/);
    expect(parseConfig({ ...base, CONFIDENTIAL_MODELS: " llama3-70b-8192 " }).confidential?.models).toEqual(["llama3-70b-8192"]);
    expect(() => parseConfig({ NODE_ENV: "test", CONFIDENTIAL_MODELS: "llama3-8b-8192" })).toThrow(/CONFIDENTIAL_BASE_URL is missing/);
  });

  it("embedded default: no provider at all in development means the development enclave on ENCLAVE_PORT, development trust, every model", () => {
    const config = parseConfig({ NODE_ENV: "development" });
    expect(config.confidential).toMatchObject({
      origin: "http://127.0.0.1:8788",
      trust: "development",
      models: ["llama3-8b-8192", "llama3-70b-8192"],
      embedded: true,
    });
    expect(describeDefaults(config).join("\n")).toMatch(/development enclave at http:\/\/127\.0\.0\.1:8788/);
    expect(parseConfig({ NODE_ENV: "development", ENCLAVE_PORT: "9911" }).confidential?.origin).toBe("http://127.0.0.1:9911");
    for (const provider of [{ GROQ_API_KEY: "gsk" }, { LLM_BASE_URL: "http://localhost:11434/v1" }]) {
      expect(parseConfig({ NODE_ENV: "development", ...provider }).confidential).toBeNull();
    }
    // Tests and production never get it implicitly.
    expect(parseConfig({ NODE_ENV: "test" }).confidential).toBeNull();
  });

  it("the browser-safe subset carries models, trust, enclave host, config repo and relay paths, never the key", () => {
    const config = parseConfig({
      ...PRODUCTION,
      CONFIDENTIAL_BASE_URL: "https://enclave.example:8443",
      CONFIDENTIAL_CONFIG_REPO: "tinfoilsh/confidential-model-router",
      CONFIDENTIAL_API_KEY: "tk_secret_value",
      CONFIDENTIAL_MODELS: "llama3-8b-8192",
      CONFIDENTIAL_MODEL_BASIC: "gpt-oss-120b",
      GROQ_API_KEY: "gsk",
    });
    const pub = confidentialPublicConfig(config);
    expect(pub).toEqual({
      models: ["llama3-8b-8192"],
      enclaveModels: { "llama3-8b-8192": "gpt-oss-120b" },
      trust: "production",
      enclaveHost: "enclave.example:8443",
      configRepo: "tinfoilsh/confidential-model-router",
      contextTokens: { "llama3-8b-8192": 32_000 },
      paths: CONFIDENTIAL_PATHS,
      modelHeader: "X-Hush-Model",
      // docs/issues.md #40: CONFIDENTIAL_SEARCH_PII_CHECK, off by default.
      searchPiiCheck: false,
    });
    expect(JSON.stringify(pub)).not.toContain("tk_secret_value");
    expect(isConfidentialModel("llama3-8b-8192", config)).toBe(true);
    expect(isConfidentialModel("llama3-70b-8192", config)).toBe(false);
    expect(enclaveModelId("llama3-8b-8192", config)).toBe("gpt-oss-120b");
    expect(confidentialPublicConfig(parseConfig({ NODE_ENV: "test" }))).toBeNull();
  });
});

describe("X-Tinfoil-Usage-Metrics", () => {
  it("parses Tinfoil's format (confidential-model-router FormatUsage)", () => {
    expect(parseUsageMetrics("prompt=67,completion=42,total=109")).toEqual({ promptTokens: 67, completionTokens: 42, totalTokens: 109 });
    expect(parseUsageMetrics("prompt=10,completion=5,total=15,cached_prompt_tokens=4,uncached_prompt_tokens=6,model=gpt-oss-120b")).toEqual({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      model: "gpt-oss-120b",
    });
    expect(parseUsageMetrics("prompt = 1 , completion = 2 , total = 3")).toMatchObject({ promptTokens: 1, completionTokens: 2, totalTokens: 3 });
    expect(parseUsageMetrics("prompt=1,completion=2,total=3,model=openai%2Fgpt-oss-20b")?.model).toBe("openai/gpt-oss-20b");
    for (const bad of [null, "", "prompt=1,completion=2", "prompt=-1,completion=2,total=3", "prompt=a,completion=2,total=3", "prompt=1,completion=2,total=3,model=%E0%A4%A"]) {
      expect(parseUsageMetrics(bad)).toBeNull();
    }
  });
});

describe("GET /api/confidential/attestation", () => {
  let enclave: FakeEnclave;
  const KEYS = ["CONFIDENTIAL_BASE_URL", "CONFIDENTIAL_TRUST", "CONFIDENTIAL_CONFIG_REPO"];

  beforeAll(async () => {
    enclave = await startFakeEnclave();
  });

  afterAll(async () => {
    await enclave.close();
    for (const k of KEYS) delete process.env[k];
    resetConfigForTests();
  });

  it("development trust: the enclave's document, bytes unchanged, from its well-known path only", async () => {
    const doc = Buffer.from(JSON.stringify({ format: "https://hush.chat/predicate/development/v1", body: "H4sI\u00e9AAAA" }));
    enclave.answer = (req) =>
      req.url === "/.well-known/tinfoil-attestation"
        ? { status: 200, headers: { "Content-Type": "application/json", "X-Upstream": "1" }, chunks: [doc] }
        : { status: 404, chunks: [] };
    Object.assign(process.env, { CONFIDENTIAL_BASE_URL: enclave.origin, CONFIDENTIAL_TRUST: "development" });
    resetConfigForTests();
    const res = await attest();
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(doc)).toBe(true);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-upstream")).toBeNull();
    expect(enclave.requests.map((r) => [r.method, r.url])).toEqual([["GET", "/.well-known/tinfoil-attestation"]]);
  });

  it("development trust, enclave failing or down: 502 JSON", async () => {
    enclave.answer = () => ({ status: 500, chunks: [Buffer.from("boom")] });
    const res = await attest();
    expect(res.status).toBe(502);
    expect((await res.json()).error).toMatch(/attestation could not be fetched/);
  });

  it("a failure is remembered briefly: the failing enclave is not asked again at once (docs/issues.md #43, finding 5)", async () => {
    resetAttestationCacheForTests();
    Object.assign(process.env, { CONFIDENTIAL_BASE_URL: enclave.origin, CONFIDENTIAL_TRUST: "development" });
    resetConfigForTests();
    enclave.answer = () => ({ status: 500, chunks: [Buffer.from("boom")] });
    const before = enclave.requests.length;
    expect((await attest()).status).toBe(502);
    expect((await attest()).status).toBe(502);
    expect((await attest("192.0.2.99")).status).toBe(502);
    expect(enclave.requests.length - before).toBe(1);
    resetAttestationCacheForTests();
  });

  it(`per client network: ${ATTESTATION_LIMIT.points} a minute, then 429 with Retry-After; another network is served (docs/issues.md #43, finding 5)`, async () => {
    resetAttestationCacheForTests();
    Object.assign(process.env, { CONFIDENTIAL_BASE_URL: enclave.origin, CONFIDENTIAL_TRUST: "development" });
    resetConfigForTests();
    enclave.answer = () => ({ status: 200, headers: { "Content-Type": "application/json" }, chunks: [Buffer.from("{}")] });
    for (let i = 0; i < ATTESTATION_LIMIT.points; i++) expect((await attest("203.0.113.43")).status).toBe(200);
    const before = enclave.requests.length;
    const refused = await attest("203.0.113.43");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: expect.any(String) });
    expect(enclave.requests.length).toBe(before);
    expect((await attest("203.0.113.44")).status).toBe(200);
  });

  it("production trust: assembled by @tinfoilsh/verifier from the enclave host; unreachable gives 502 JSON that claims nothing", async () => {
    resetAttestationCacheForTests();
    Object.assign(process.env, {
      CONFIDENTIAL_BASE_URL: `https://127.0.0.1:${enclave.port}`,
      CONFIDENTIAL_TRUST: "production",
      CONFIDENTIAL_CONFIG_REPO: "tinfoilsh/confidential-model-router",
    });
    resetConfigForTests();
    const res = await attest();
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(["error"]);
    expect(JSON.stringify(body)).not.toMatch(/verified/i);
  });

  it("off: both routes answer 404 JSON", async () => {
    for (const k of KEYS) delete process.env[k];
    resetConfigForTests();
    expect((await attest()).status).toBe(404);
    const res = await chat(new Request("http://localhost/api/confidential/chat", { method: "POST", body: "x" }));
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatch(/not configured/);
  });
});
