/**
 * Usage reported by an enclave outside the ciphertext, so a relay that cannot read the body can meter it.
 * Tinfoil's convention (confidential-model-router): the relay sends `X-Tinfoil-Request-Usage-Metrics: true`;
 * the answer carries `X-Tinfoil-Usage-Metrics: prompt=<n>,completion=<n>,total=<n>` as a header (JSON answers)
 * or as an HTTP trailer (streamed `text/event-stream` answers), optionally followed by
 * `cached_prompt_tokens`/`uncached_prompt_tokens` and `model=<served model id>` (Tinfoil's router,
 * manager/proxy.go `FormatUsage`); Hush's development enclave URI-encodes the model id, so the relay can
 * compare the served model with the clear model header. `model` is undefined where it is not reported.
 */

/** Request header asking the enclave for usage metrics. */
export const USAGE_METRICS_REQUEST_HEADER = "X-Tinfoil-Request-Usage-Metrics";
/** Response header or trailer carrying the usage metrics. */
export const USAGE_METRICS_HEADER = "X-Tinfoil-Usage-Metrics";

export interface UsageMetrics {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** The model the enclave actually served, when the enclave reports it. */
  model?: string;
}

/** Format usage as the header value (`prompt=1,completion=2,total=3[,model=…]`). */
export function formatUsageMetrics(usage: UsageMetrics): string {
  const parts = [`prompt=${usage.promptTokens}`, `completion=${usage.completionTokens}`, `total=${usage.totalTokens}`];
  if (usage.model !== undefined) parts.push(`model=${encodeURIComponent(usage.model)}`);
  return parts.join(",");
}

/**
 * Parse a usage header value; unknown keys are ignored, whitespace around `=` and `,` tolerated.
 * @returns the usage, or null when a token count is missing or not a non-negative integer
 */
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
