import "server-only";
import { findModel, type ModelDescriptor } from "@/lib/llm/models";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { contextBudgetTokens, fitContext, providerModelId, type ContextReport, type ModelAttachment } from "@/lib/llm";
import { decodeDataUrl, extractPdfText, NOT_PDF_MESSAGE, PdfError } from "@/lib/pdf";
import type { ChatRequest, ConversationDocument, Role } from "./schema";

const notPdf = () => new AppError("unsupported_media_type:file", NOT_PDF_MESSAGE);

/** A message as the API returns it (docs/product.md §3 Message: role, content). */
export interface ChatMessage {
  role: Role;
  content: string;
}

/** What the server read from an attached PDF, returned so the UI can say when text was cut. */
export interface AttachmentInfo {
  name: string;
  pages: number;
  totalPages: number;
  truncated: boolean;
  notice: string | null;
}

/** A validated turn, ready for the provider. */
export interface PreparedTurn {
  model: ModelDescriptor;
  providerModel: string;
  /** The conversation as the client sent it (roles and contents only). */
  history: ChatMessage[];
  /** System prompt + the history and documents that fit the model's context budget, as sent to the provider. */
  modelMessages: { role: Role; content: string }[];
  attachment: AttachmentInfo | null;
  /** This turn's PDF as the browser keeps it for later turns (the response's `document`), or null. */
  document: ConversationDocument | null;
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
 * Read the attached PDF and build the provider input for a model already checked by `checkModel`
 * (the routes check it before counting the quota). `client` ("user:<id>" or the client address)
 * allows one PDF being read at a time per client.
 * @throws AppError 400/413/415/422 attachment problems, 429 another PDF of this client is being read,
 *   503 every PDF worker busy (both with Retry-After).
 */
export async function prepareTurn(body: ChatRequest, model: ModelDescriptor, client: string | null = null): Promise<PreparedTurn> {

  const history: ChatMessage[] = body.messages.map((m) => ({ role: m.role, content: m.content }));
  let attachment: AttachmentInfo | null = null;
  let attachmentText: string | null = null;
  if (body.file) {
    const doc = await readPdf(body.file, client);
    attachment = doc.info;
    attachmentText = doc.text;
  }

  // Earlier documents first, this turn's PDF last: the budget leaves out the oldest first.
  const documents: ModelAttachment[] = (body.documents ?? []).map((d) => ({ name: d.name, text: d.text, truncated: false }));
  if (attachment && attachmentText !== null) documents.push({ ...attachment, text: attachmentText });
  const fitted = fitContext({ history, documents, budgetTokens: contextBudgetTokens(model.code) });
  return {
    model,
    providerModel: providerModelId(model.code),
    history,
    modelMessages: fitted.messages,
    attachment,
    document: attachment && attachmentText !== null ? { name: attachment.name, text: attachmentText } : null,
    context: fitted.report,
  };
}

async function readPdf(file: NonNullable<ChatRequest["file"]>, client: string | null): Promise<{ info: AttachmentInfo; text: string }> {
  if (file.type !== "application/pdf") throw notPdf();
  try {
    const { mimeType, bytes } = decodeDataUrl(file.content, { maxBytes: getConfig().PDF_MAX_BYTES });
    if (mimeType !== "application/pdf") throw notPdf();
    const result = await extractPdfText(bytes, {}, { client });
    const notice = result.truncated
      ? result.totalPages > result.pages
        ? `Only the first ${result.pages} of ${result.totalPages} pages of this PDF were read.`
        : `This PDF is long: only its first ${getConfig().PDF_MAX_TEXT_CHARS.toLocaleString("en-US")} characters were read.`
      : null;
    return {
      info: { name: file.name, pages: result.pages, totalPages: result.totalPages, truncated: result.truncated, notice },
      text: result.text,
    };
  } catch (error) {
    if (error instanceof PdfError) {
      const status = pdfErrorStatus(error);
      throw new AppError(`unprocessable:pdf_${error.code}`, error.message, { status, headers: status === 503 || status === 429 ? { "Retry-After": "5" } : undefined });
    }
    throw error;
  }
}

function pdfErrorStatus(error: PdfError): number {
  switch (error.code) {
    case "not_pdf":
      return 415;
    case "too_large":
      return 413;
    case "invalid_data_url":
      return 400;
    case "busy":
      return 503;
    case "busy_client":
      return 429;
    default:
      return 422;
  }
}
