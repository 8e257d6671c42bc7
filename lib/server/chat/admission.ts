import "server-only";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";
import type { AppError } from "@/lib/shared/errors";
import { imageRefusal } from "@/lib/server/chat/turn";
import { fileRefusal } from "@/lib/server/chat/file";
import { confidentialInClearError } from "@/lib/server/llm/confidential-models";
import { searchRefusal } from "@/lib/server/search/run";

/** The body's refusals before anything is counted, in the order both chat calls answer them (docs/product.md §7, §8); null passed. */
export function turnRefusals(body: ChatRequest): (AppError | null)[] {
  return [confidentialInClearError(body.model), imageRefusal(body), fileRefusal(body), searchRefusal(body.web_search)];
}

export function firstRefusal(refusals: readonly (AppError | null)[]): AppError | null {
  return refusals.find((r) => r !== null) ?? null;
}
