import type { ChatRequestBody } from "@/lib/shared/chat/turn-schema";
import { contentImages, contentText } from "@/lib/shared/chat/images";
import { fitContext, type FittedContext } from "./fit-context";
import type { ModelAttachment } from "./prompt";

// The one prompt assembly of a chat turn, for the server's standard path and the browser's confidential one alike.

export type TurnInput = Pick<ChatRequestBody, "messages" | "document" | "documents" | "knowledge" | "instructions" | "memories">;

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
