import "server-only";
import { findModel, type ModelDescriptor } from "@/lib/shared/llm/models";
import { AppError } from "@/lib/shared/errors";
import { contextBudgetTokens, modelReadsImages, providerModelId, type ContextReport, type LlmMessage } from "@/lib/server/llm";
import { turnModelInput } from "@/lib/shared/llm/turn-input";
import { contentImages, contentText } from "@/lib/shared/chat/images";
import type { ChatRequest, Role } from "@/lib/shared/chat/turn-schema";

/** A message as the API returns it (docs/product.md §3 Message: role, content). */
export interface ChatMessage {
  role: Role;
  content: string;
}

/** A validated turn, ready for the provider. */
export interface PreparedTurn {
  model: ModelDescriptor;
  providerModel: string;
  /** The conversation as the client sent it (roles and text contents only: images are never echoed). */
  history: ChatMessage[];
  /** System prompt + the history, images and documents that fit the model's context budget, as sent to the provider. */
  modelMessages: LlmMessage[];
  /** What the context budget left out of the model input (the response's `context`). */
  context: ContextReport;
}

/**
 * The requested model, if the caller's plan allows it (docs/product.md §6: the Pro model needs Pro, whatever the
 * client sends).
 * @throws AppError 400 unknown model, 403 Pro model without Pro.
 */
export function checkModel(code: string, plan: "Free" | "Pro"): ModelDescriptor {
  const model = findModel(code);
  if (!model) throw new AppError("bad_request:model", "Unknown model. Choose one of the models offered in the model picker.");
  if (model.plan === "Pro" && plan !== "Pro") {
    throw new AppError("forbidden:plan", `The ${model.title} model needs a Pro plan.`);
  }
  return model;
}

/**
 * Build the provider input for a model already checked by `checkModel` (the routes check it before counting
 * the quota). This turn's PDF arrives as text the browser extracted (`document`; docs/issues.md #20, "Documents":
 * no file reaches the server), its length already bounded by the request schema (PDF_MAX_TEXT_CHARS).
 */
export function prepareTurn(body: ChatRequest, model: ModelDescriptor): PreparedTurn {
  checkImagesAllowed(body, model);
  const history: ChatMessage[] = body.messages.map((m) => ({ role: m.role, content: contentText(m.content) }));
  const fitted = turnModelInput(body, contextBudgetTokens(model.code));
  return {
    model,
    providerModel: providerModelId(model.code),
    history,
    modelMessages: fitted.messages,
    context: fitted.report,
  };
}

/** The sentence for an image sent to a model that reads text only; the same as the browser's (lib/browser/files/errors.ts). */
export function imageNotSupportedMessage(modelTitle: string): string {
  return `The ${modelTitle} model cannot read images. Attach the text instead, or describe the image in your message.`;
}

/**
 * Images only for a model that reads them (lib/server/llm/providers.ts `modelReadsImages`).
 * @throws AppError 400 "bad_request:image_not_supported" with the sentence the chat shows.
 */
export function checkImagesAllowed(body: ChatRequest, model: ModelDescriptor): void {
  if (body.messages.some((m) => contentImages(m.content).length > 0) && !modelReadsImages(model.code)) {
    throw new AppError("bad_request:image_not_supported", imageNotSupportedMessage(model.title));
  }
}

/**
 * The refusal `checkImagesAllowed` would throw for a body, or null (also for an unknown model: `checkModel`
 * answers that). The routes ask it before the quota is counted, so a refused image costs no message.
 */
export function imageRefusal(body: ChatRequest): AppError | null {
  const model = findModel(body.model);
  if (!model) return null;
  try {
    checkImagesAllowed(body, model);
    return null;
  } catch (error) {
    return error as AppError;
  }
}
