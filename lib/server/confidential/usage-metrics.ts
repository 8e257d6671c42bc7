// Usage an enclave reports outside the ciphertext (Tinfoil's `X-Tinfoil-Usage-Metrics`, manager/proxy.go `FormatUsage`).

export const USAGE_METRICS_REQUEST_HEADER = "X-Tinfoil-Request-Usage-Metrics";
export const USAGE_METRICS_HEADER = "X-Tinfoil-Usage-Metrics";

export interface UsageMetrics {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  model?: string;
}

export function formatUsageMetrics(usage: UsageMetrics): string {
  const parts = [`prompt=${usage.promptTokens}`, `completion=${usage.completionTokens}`, `total=${usage.totalTokens}`];
  if (usage.model !== undefined) parts.push(`model=${encodeURIComponent(usage.model)}`);
  return parts.join(",");
}

/** Null when a token count is missing or not a non-negative integer. */
export function parseUsageMetrics(value: string | null | undefined): UsageMetrics | null {
  if (!value || value.length > 1000) return null;
  const fields = new Map<string, string>();
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) fields.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const count = (key: string) => {
    const raw = fields.get(key);
    return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
  };
  const promptTokens = count("prompt");
  const completionTokens = count("completion");
  const totalTokens = count("total");
  if (promptTokens === null || completionTokens === null || totalTokens === null) return null;
  const usage: UsageMetrics = { promptTokens, completionTokens, totalTokens };
  const model = fields.get("model");
  if (model) {
    try {
      usage.model = decodeURIComponent(model);
    } catch {
      return null;
    }
  }
  return usage;
}
