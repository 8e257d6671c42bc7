import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_MODEL_CODE,
  defaultModel,
  findModel,
  isModelCode,
  MODEL_CODES,
  MODEL_OPTIONS,
  planAllowsModel,
} from "@/config/models";
import { resetConfigForTests } from "@/lib/config";
import { providerModelId, UnknownModelError } from "@/lib/llm/models";

afterEach(() => {
  delete process.env.LLM_MODEL_BASIC;
  delete process.env.LLM_MODEL_PRO;
  resetConfigForTests();
});

describe("model catalogue (spec §9)", () => {
  it("offers Basic (Free, default) and Pro (Pro) under the public llama3 codes", () => {
    expect(MODEL_OPTIONS).toEqual([
      { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", contextTokens: 32_000 },
      { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", contextTokens: 100_000 },
    ]);
    expect(MODEL_CODES).toEqual(["llama3-8b-8192", "llama3-70b-8192"]);
    expect(DEFAULT_MODEL_CODE).toBe("llama3-8b-8192");
    expect(defaultModel().title).toBe("Basic");
  });

  it("finds models by code only", () => {
    expect(findModel("llama3-70b-8192")?.title).toBe("Pro");
    expect(findModel("openai/gpt-oss-120b")).toBeUndefined();
    expect(findModel("")).toBeUndefined();
    expect(isModelCode("llama3-8b-8192")).toBe(true);
    expect(isModelCode("gpt-4")).toBe(false);
    expect(isModelCode(42)).toBe(false);
  });

  it("lets Free use Basic only and Pro use both", () => {
    const [basic, pro] = MODEL_OPTIONS;
    expect(planAllowsModel("Free", basic!)).toBe(true);
    expect(planAllowsModel("Free", pro!)).toBe(false);
    expect(planAllowsModel("Pro", basic!)).toBe(true);
    expect(planAllowsModel("Pro", pro!)).toBe(true);
  });

  it("keeps provider ids out of the public list", () => {
    expect(JSON.stringify(MODEL_OPTIONS)).not.toMatch(/gpt-oss/);
  });
});

describe("providerModelId", () => {
  it("defaults to Groq's gpt-oss models", () => {
    expect(providerModelId("llama3-8b-8192")).toBe("openai/gpt-oss-20b");
    expect(providerModelId("llama3-70b-8192")).toBe("openai/gpt-oss-120b");
  });

  it("follows LLM_MODEL_BASIC and LLM_MODEL_PRO", () => {
    process.env.LLM_MODEL_BASIC = "llama3.2:3b";
    process.env.LLM_MODEL_PRO = "qwen2.5:32b";
    resetConfigForTests();
    expect(providerModelId("llama3-8b-8192")).toBe("llama3.2:3b");
    expect(providerModelId("llama3-70b-8192")).toBe("qwen2.5:32b");
  });

  it("throws for an unknown code", () => {
    expect(() => providerModelId("gpt-4")).toThrow(UnknownModelError);
  });
});
