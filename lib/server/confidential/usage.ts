import "server-only";
import { logger } from "@/lib/server/log";

import { parseUsageMetrics, USAGE_METRICS_HEADER, USAGE_METRICS_REQUEST_HEADER, type UsageMetrics } from "./usage-metrics";
import { processSlot } from "@/lib/server/process-state";

export { parseUsageMetrics };
export const USAGE_REQUEST_HEADER = USAGE_METRICS_REQUEST_HEADER;
export const USAGE_RESPONSE_HEADER = USAGE_METRICS_HEADER;

/** Who a confidential turn was for, as usage is counted: by kind only, never by user. */
export type UsageKind = "visitor" | "free" | "pro";

type Totals = Record<UsageKind, { turns: number; unreported: number; prompt: number; completion: number; total: number }>;
const totals: Totals = (processSlot<Totals>("confidentialUsage").value ??= {
  visitor: { turns: 0, unreported: 0, prompt: 0, completion: 0, total: 0 },
  free: { turns: 0, unreported: 0, prompt: 0, completion: 0, total: 0 },
  pro: { turns: 0, unreported: 0, prompt: 0, completion: 0, total: 0 },
});

/** Count and log one relayed turn (kind, model code and numbers only); `usage` null: none reported. */
export function recordUsage(kind: UsageKind, modelCode: string, usage: UsageMetrics | null): void {
  const t = totals[kind];
  t.turns += 1;
  if (usage) {
    t.prompt += usage.promptTokens;
    t.completion += usage.completionTokens;
    t.total += usage.totalTokens;
  } else {
    t.unreported += 1;
  }
  logger("confidential").info(
    {
      kind,
      model: modelCode,
      tokens: usage ? { prompt: usage.promptTokens, completion: usage.completionTokens, total: usage.totalTokens } : null,
      totals: { ...t },
    },
    "confidential usage",
  );
}

export function usageTotals(): Readonly<typeof totals> {
  return structuredClone(totals);
}
