import "server-only";
import { isModelCode, type ModelCode } from "@/lib/shared/llm/models";
import { getConfig, type Config } from "@/lib/server/config";
import { AppError } from "@/lib/shared/errors";
import { contextBudgetTokens, modelPrivacy, modelProviders } from "@/lib/server/llm/providers";
import { CONFIDENTIAL_PATHS, MODEL_HEADER, type ConfidentialPublicConfig, type ModelPrivacy } from "@/lib/shared/confidential/protocol";
import { confidentialProviderName } from "@/lib/server/config-confidential";

export function isConfidentialModel(code: string, config: Config = getConfig()): code is ModelCode {
  return isModelCode(code) && modelPrivacy(code, config) === "confidential";
}

/** 409 for a confidential model on a plaintext route: its messages reach the server only as ciphertext. */
export function confidentialInClearError(code: string, config: Config = getConfig()): AppError | null {
  if (!isConfidentialModel(code, config)) return null;
  return new AppError(
    "conflict:model_confidential",
    "This model only accepts messages encrypted in your browser to its verified enclave. Reload the page and send again.",
  );
}

export function enclaveModelId(code: string, config: Config = getConfig()): string | null {
  if (!isConfidentialModel(code, config)) return null;
  return config.confidential!.enclaveModels[code];
}

/** The browser-safe confidential settings (no key), or null when off. */
export function confidentialPublicConfig(config: Config = getConfig()): ConfidentialPublicConfig | null {
  const c = config.confidential;
  if (!c) return null;
  return {
    models: [...c.models],
    enclaveModels: Object.fromEntries(c.models.map((code) => [code, c.enclaveModels[code]])),
    trust: c.trust,
    enclaveHost: c.host,
    configRepo: c.trust === "production" ? c.configRepo : null,
    contextTokens: Object.fromEntries(c.models.map((code) => [code, contextBudgetTokens(code, config)])),
    paths: CONFIDENTIAL_PATHS,
    modelHeader: MODEL_HEADER,
    searchPiiCheck: config.CONFIDENTIAL_SEARCH_PII_CHECK === "1",
  };
}

/** One sentence per model on who processes its messages (docs/product.md §9). */
export function modelPrivacyLines(config: Config = getConfig()): ModelPrivacy[] {
  return modelProviders(config).map((p) => {
    if (p.privacy === "confidential") {
      const trust = config.confidential!.trust;
      const development = trust === "development" ? " (development enclave: no hardware isolation)" : "";
      return {
        code: p.code,
        title: p.title,
        confidential: true,
        providerName: confidentialProviderName(config.confidential!),
        trust,
        line: `Confidential${development}: encrypted in your browser to a verified enclave; Hush's server relays only ciphertext it cannot read`,
      };
    }
    return {
      code: p.code,
      title: p.title,
      confidential: false,
      providerName: p.providerName,
      trust: null,
      line: `Standard: Hush's server and ${p.providerName} process your messages`,
    };
  });
}
