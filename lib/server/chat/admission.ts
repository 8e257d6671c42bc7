import "server-only";
import type { ChatRequest } from "@/lib/shared/chat/turn-schema";
import type { AppError } from "@/lib/shared/errors";
import { imageRefusal } from "@/lib/server/chat/turn";
import { fileRefusal } from "@/lib/server/chat/file";
import { confidentialInClearError } from "@/lib/server/llm/confidential-models";
import { searchRefusal } from "@/lib/server/search/run";

/**
 * The refusals a chat turn's body earns before anything is counted, in the order both chat calls answer them
 * (docs/product.md §7, §8; docs/issues.md #50 "one function"): 409 a confidential model in clear (its turns go
 * encrypted through the relay), 400 an image for a model that reads text only, 415/400/413 a `file` refused at
 * sight (reading it comes after the count), 400 web search without this server's SearXNG. Nulls are the checks
 * that passed; the visitor call throws the first refusal, the signed-in call hands the list to its one statement
 * (lib/server/chat/signed-in.ts admitUserTurn), which answers its session and account refusals before them.
 */
export function turnRefusals(body: ChatRequest): (AppError | null)[] {
  return [confidentialInClearError(body.model), imageRefusal(body), fileRefusal(body), searchRefusal(body.web_search)];
}

/** The first of `refusals` that is not null. */
export function firstRefusal(refusals: readonly (AppError | null)[]): AppError | null {
  return refusals.find((r) => r !== null) ?? null;
}
