import type { ChatRequestBody } from "@/lib/shared/chat/turn-schema";
import { contentImages, contentText } from "@/lib/shared/chat/images";
import { fitContext, type FittedContext } from "./fit-context";
import type { ModelAttachment } from "./prompt";

/**
 * The one prompt assembly of a chat turn (docs/issues.md #50): from the turn's body to the model's input within
 * its context budget. The server calls it for a standard model (lib/server/chat/turn.ts), the browser for a
 * confidential one (lib/browser/confidential/turn.ts), so both paths send the model the same system prompt, the
 * same delimiting of untrusted material (./prompt.ts) and the same fitting (./fit-context.ts).
 */

/** The fields of a turn that reach the model. */
export type TurnInput = Pick<ChatRequestBody, "messages" | "document" | "documents" | "knowledge" | "instructions" | "memories">;

/**
 * The model input of a turn: the server's prompt, the project's instructions and memories, the conversation
 * (images kept on their user messages), and its material as delimited documents in the last user message,
 * oldest first: earlier documents, then the project's passages (named "file, part"), then this turn's PDF.
 * @param budgetTokens the model's context budget (lib/server/llm/providers.ts contextBudgetTokens)
 */
export function turnModelInput(body: TurnInput, budgetTokens: number): FittedContext {
  const history = body.messages.map((m) => {
    const images = contentImages(m.content);
    return images.length ? { role: m.role, content: contentText(m.content), images } : { role: m.role, content: contentText(m.content) };
  });
  const documents: ModelAttachment[] = [
    ...(body.documents ?? []).map((d) => ({ name: d.name, text: d.text, truncated: false })),
    ...(body.knowledge ?? []).map((p) => ({ name: `${p.file}, ${p.part}`, text: p.text, truncated: false })),
  ];
  if (body.document) documents.push({ name: body.document.name, text: body.document.text, truncated: body.document.truncated ?? false });
  return fitContext({ history, documents, budgetTokens, memories: body.memories, instructions: body.instructions });
}
