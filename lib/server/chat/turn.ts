import "server-only";
import { findModel, type ModelDescriptor } from "@/lib/shared/llm/models";
import { AppError } from "@/lib/shared/errors";
import { contextBudgetTokens, modelReadsImages, providerModelId, type ContextReport, type LlmMessage } from "@/lib/server/llm";
import { turnModelInput } from "@/lib/shared/llm/turn-input";
import { contentImages, contentText } from "@/lib/shared/chat/images";
import type { ChatRequest, Role } from "@/lib/shared/chat/turn-schema";

export interface ChatMessage {
  role: Role;
  content: string;
}

export interface PreparedTurn {
  model: ModelDescriptor;
  providerModel: string;
  history: ChatMessage[];
  modelMessages: LlmMessage[];
  context: ContextReport;
}

/** The requested model if the plan allows it (docs/product.md §6). @throws AppError 400, 403 */
export function checkModel(code: string, plan: "Free" | "Pro"): ModelDescriptor {
  const model = findModel(code);
  if (!model) throw new AppError("bad_request:model", "Unknown model. Choose one of the models offered in the model picker.");
  if (model.plan === "Pro" && plan !== "Pro") {
    throw new AppError("forbidden:plan", `The ${model.title} model needs a Pro plan.`);
  }
  return model;
}

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

/** The browser's sentence too (lib/browser/files/errors.ts). */
export function imageNotSupportedMessage(modelTitle: string): string {
  return `The ${modelTitle} model cannot read images. Attach the text instead, or describe the image in your message.`;
}

function checkImagesAllowed(body: ChatRequest, model: ModelDescriptor): void {
  if (body.messages.some((m) => contentImages(m.content).length > 0) && !modelReadsImages(model.code)) {
    throw new AppError("bad_request:image_not_supported", imageNotSupportedMessage(model.title));
  }
}

/** Asked before the quota is counted. */
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
