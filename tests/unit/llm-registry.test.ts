/**
 * The provider registry (docs/issues.md #8, inference privacy): each model goes to its own configured provider.
 * Two fake OpenAI-compatible servers stand for Groq-or-default (Basic) and a confidential-computing
 * proxy (Pro); the real openai and groq-sdk clients talk to them over HTTP.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { getLlmProvider, modelProviders, providerModelId, type LlmEvent } from "@/lib/server/llm";
import { startFakeLlmServer, type FakeLlmServer } from "@/tests/helpers/fake-llm-server";

const KEYS = [
  "GROQ_API_KEY",
  "CONFIDENTIAL_BASE_URL",
  "CONFIDENTIAL_API_KEY",
  "CONFIDENTIAL_MODELS",
  "CONFIDENTIAL_MODEL_BASIC",
  "CONFIDENTIAL_TRUST",
  "GROQ_BASE_URL",
  "LLM_BASE_URL",
  "LLM_API_KEY",
  "LLM_PROVIDER_NAME",
  "LLM_RETENTION",
  "LLM_PRO_BASE_URL",
  "LLM_PRO_API_KEY",
  "LLM_PRO_PROVIDER_NAME",
  "LLM_PRO_RETENTION",
  "LLM_BASIC_BASE_URL",
  "LLM_BASIC_API_KEY",
  "LLM_TIMEOUT_MS",
];
const BASIC = "llama3-8b-8192";
const PRO = "llama3-70b-8192";

let basicServer: FakeLlmServer;
let proServer: FakeLlmServer;

beforeAll(async () => {
  [basicServer, proServer] = await Promise.all([startFakeLlmServer(), startFakeLlmServer()]);
});

afterAll(async () => {
  await Promise.all([basicServer.close(), proServer.close()]);
});

afterEach(() => {
  for (const key of KEYS) delete process.env[key];
  basicServer.requests.length = 0;
  proServer.requests.length = 0;
  resetConfigForTests();
});

function useEnv(env: Record<string, string>) {
  for (const key of KEYS) delete process.env[key];
  Object.assign(process.env, { LLM_TIMEOUT_MS: "10000" }, env);
  resetConfigForTests();
}

async function ask(code: string, question: string): Promise<string> {
  let text = "";
  for await (const e of getLlmProvider(code).stream({ model: providerModelId(code), messages: [{ role: "user", content: question }] }) as AsyncIterable<LlmEvent>) {
    if (e.type === "delta") text += e.text;
  }
  return text;
}

describe("provider per model", () => {
  it("sends Basic to Groq and Pro to its own OpenAI-compatible base URL, each with its own key", async () => {
    useEnv({
      GROQ_API_KEY: "gsk_basic",
      GROQ_BASE_URL: basicServer.url,
      LLM_PRO_BASE_URL: `${proServer.url}/v1`,
      LLM_PRO_API_KEY: "pro-key",
      LLM_PRO_PROVIDER_NAME: "Privatemode (confidential computing)",
      LLM_PRO_RETENTION: "Nothing: prompts are processed inside attested enclaves and not stored.",
    });
    expect(await ask(BASIC, "Basic question")).toContain("You asked: Basic question");
    expect(await ask(PRO, "Pro question")).toContain("You asked: Pro question");

    expect(basicServer.requests.map((r) => [r.path, r.model, r.messages.at(-1)?.content])).toEqual([
      ["/openai/v1/chat/completions", "openai/gpt-oss-20b", "Basic question"],
    ]);
    expect(proServer.requests.map((r) => [r.path, r.model, r.messages.at(-1)?.content])).toEqual([
      ["/v1/chat/completions", "openai/gpt-oss-120b", "Pro question"],
    ]);
    expect(getLlmProvider(BASIC).kind).toBe("groq");
    expect(getLlmProvider(PRO).kind).toBe("openai-compatible");

    expect(modelProviders()).toEqual([
      { code: BASIC, title: "Basic", privacy: "standard", kind: "groq", providerName: "Groq", retention: null },
      {
        code: PRO,
        title: "Pro",
        privacy: "standard",
        kind: "openai-compatible",
        providerName: "Privatemode (confidential computing)",
        retention: "Nothing: prompts are processed inside attested enclaves and not stored.",
      },
    ]);
  });

  it("sends both models to the default provider when no per-model URL is set", async () => {
    useEnv({ LLM_BASE_URL: `${basicServer.url}/v1`, LLM_PROVIDER_NAME: "Local vLLM", LLM_RETENTION: "Runs on our own machine; keeps nothing." });
    await ask(BASIC, "one");
    await ask(PRO, "two");
    expect(basicServer.requests.map((r) => r.model)).toEqual(["openai/gpt-oss-20b", "openai/gpt-oss-120b"]);
    expect(proServer.requests).toHaveLength(0);
    expect(modelProviders().map((p) => [p.title, p.providerName, p.retention])).toEqual([
      ["Basic", "Local vLLM", "Runs on our own machine; keeps nothing."],
      ["Pro", "Local vLLM", "Runs on our own machine; keeps nothing."],
    ]);
  });

  it("names a per-model provider by its host when no name is configured", () => {
    useEnv({ LLM_BASE_URL: `${basicServer.url}/v1`, LLM_BASIC_BASE_URL: "http://privatemode-proxy:8080/v1" });
    expect(modelProviders()[0]).toMatchObject({ providerName: "privatemode-proxy:8080", kind: "openai-compatible" });
  });

  it("names the enclave's host as the provider of a confidential model (docs/issues.md #20)", () => {
    useEnv({
      LLM_BASE_URL: `${basicServer.url}/v1`,
      CONFIDENTIAL_BASE_URL: "https://inference.enclave.example",
      CONFIDENTIAL_API_KEY: "k",
      CONFIDENTIAL_MODELS: BASIC,
      CONFIDENTIAL_MODEL_BASIC: "enclave-basic",
      CONFIDENTIAL_TRUST: "development",
    });
    expect(modelProviders().map((p) => [p.title, p.privacy, p.providerName])).toEqual([
      ["Basic", "confidential", "inference.enclave.example"],
      ["Pro", "standard", new URL(basicServer.url).host],
    ]);
  });

  it("names the embedded development enclave as such, not by its bare loopback address (/privacy)", () => {
    const config = parseConfig({ NODE_ENV: "development", ENCLAVE_PORT: "8788" });
    expect(config.confidential?.embedded).toBe(true);
    const names = modelProviders(config).map((p) => p.providerName);
    expect(names).toEqual(["Hush's development enclave, in this server's process (127.0.0.1:8788)", "Hush's development enclave, in this server's process (127.0.0.1:8788)"]);
  });

  it("lets production start with only per-model providers, and not with one of them missing", () => {
    const base = {
      NODE_ENV: "production",
      NEXTAUTH_SECRET: "x".repeat(40),
      APP_URL: "https://hush.example",
    };
    const config = parseConfig({ ...base, LLM_BASIC_BASE_URL: "http://a/v1", LLM_PRO_BASE_URL: "http://b/v1" });
    expect([config.llmRoutes.basic.baseUrl, config.llmRoutes.pro.baseUrl]).toEqual(["http://a/v1", "http://b/v1"]);
    expect(() => parseConfig({ ...base, LLM_PRO_BASE_URL: "http://b/v1" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...base, LLM_PRO_BASE_URL: "not a url", GROQ_API_KEY: "k" })).toThrow(/LLM_PRO_BASE_URL/);
  });
});
