import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/server/config";
import { resetConfigForTests } from "../helpers/process-state";
import { DEFAULT_MODEL_CODE, findModel, MODELS, privacyClassOf } from "@/lib/shared/llm/models";
import { contextBudgetTokens, modelCallsFunctions, modelChoices, modelReadsImages, providerModelId } from "@/lib/server/llm/providers";

afterEach(() => {
  delete process.env.LLM_MODEL_BASIC;
  delete process.env.LLM_MODEL_PRO;
  delete process.env.LLM_PRO_CONTEXT_TOKENS;
  delete process.env.LLM_VISION_MODELS;
  resetConfigForTests();
});

describe("model catalogue (docs/product.md §9)", () => {
  it("offers Basic (Free, default) and Pro (Pro) under the public llama3 codes", () => {
    expect(MODELS).toEqual([
      { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", tier: "basic", contextTokens: 32_000, vision: false, functionCalling: true },
      { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", tier: "pro", contextTokens: 100_000, vision: false, functionCalling: true },
    ]);
    expect(DEFAULT_MODEL_CODE).toBe("llama3-8b-8192");
    expect(findModel(DEFAULT_MODEL_CODE)?.title).toBe("Basic");
  });

  it("finds models by code only", () => {
    expect(findModel("llama3-70b-8192")?.title).toBe("Pro");
    expect(findModel("openai/gpt-oss-120b")).toBeUndefined();
    expect(findModel("")).toBeUndefined();
  });

  it("gives the picker the public columns, every model standard until a model is listed as confidential", () => {
    expect(modelChoices()).toEqual([
      { code: "llama3-8b-8192", title: "Basic", description: "For everyday tasks", plan: "Free", privacy: "standard", vision: false, functionCalling: true },
      { code: "llama3-70b-8192", title: "Pro", description: "For advanced tasks", plan: "Pro", privacy: "standard", vision: false, functionCalling: true },
    ]);
    expect(privacyClassOf("llama3-70b-8192", ["llama3-70b-8192"])).toBe("confidential");
    expect(privacyClassOf("llama3-8b-8192", ["llama3-70b-8192"])).toBe("standard");
  });

  it("reads images only for the models LLM_VISION_MODELS lists (docs/issues.md #23); an unknown code stops start-up", () => {
    expect(modelReadsImages("llama3-8b-8192")).toBe(false);
    process.env.LLM_VISION_MODELS = " llama3-70b-8192 ";
    resetConfigForTests();
    expect(modelChoices().map((m) => [m.code, m.vision])).toEqual([
      ["llama3-8b-8192", false],
      ["llama3-70b-8192", true],
    ]);
    expect(() => parseConfig({ LLM_VISION_MODELS: "llava" })).toThrow(/LLM_VISION_MODELS: unknown model code llava/);
    expect(parseConfig({}).visionModels).toEqual([]);
  });

  it("both default models call functions (the table's column); LLM_NO_FUNCTION_CALLING_MODELS turns it off for a code", () => {
    expect(MODELS.map((m) => m.functionCalling)).toEqual([true, true]);
    expect(modelCallsFunctions("llama3-8b-8192")).toBe(true);
    expect(modelCallsFunctions("no-such-model")).toBe(false);
    process.env.LLM_NO_FUNCTION_CALLING_MODELS = "llama3-8b-8192";
    resetConfigForTests();
    try {
      expect([modelCallsFunctions("llama3-8b-8192"), modelCallsFunctions("llama3-70b-8192")]).toEqual([false, true]);
      // The picker's choices carry it: the chat offers "Run code" only for a model that calls functions.
      expect(modelChoices().map((m) => m.functionCalling)).toEqual([false, true]);
    } finally {
      delete process.env.LLM_NO_FUNCTION_CALLING_MODELS;
      resetConfigForTests();
    }
    expect(() => parseConfig({ LLM_NO_FUNCTION_CALLING_MODELS: "llava" })).toThrow(/LLM_NO_FUNCTION_CALLING_MODELS: unknown model code llava/);
    expect(parseConfig({}).CHAT_MAX_TOOL_STEPS).toBe(8);
  });

  it("keeps provider ids out of the public list", () => {
    expect(JSON.stringify(MODELS)).not.toMatch(/gpt-oss/);
    expect(JSON.stringify(modelChoices())).not.toMatch(/gpt-oss/);
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
    expect(() => providerModelId("gpt-4")).toThrow(expect.objectContaining({ code: "bad_request:model" }));
    expect(() => contextBudgetTokens("gpt-4")).toThrow(expect.objectContaining({ code: "bad_request:model" }));
  });
});

describe("contextBudgetTokens", () => {
  it("takes the table's budget unless the tier's setting overrides it", () => {
    expect(contextBudgetTokens("llama3-8b-8192")).toBe(32_000);
    expect(contextBudgetTokens("llama3-70b-8192")).toBe(100_000);
    process.env.LLM_PRO_CONTEXT_TOKENS = "8000";
    resetConfigForTests();
    expect(contextBudgetTokens("llama3-70b-8192")).toBe(8000);
    expect(contextBudgetTokens("llama3-8b-8192")).toBe(32_000);
  });
});
