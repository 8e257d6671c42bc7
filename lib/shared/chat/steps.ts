import { z } from "@/lib/shared/zod";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { MAX_STEP_TEXT, MAX_TOOL_STEPS } from "@/lib/shared/llm/device-tools";

/**
 * An answer's steps (docs/issues.md #50): what the turn did on the way to its answer, kept with the answer and
 * shown as collapsible steps under it. A saved chat seals this record in the message's own field "steps"
 * (`messages.steps_ciphertext`, lib/browser/vault/seal.ts); visitors' and temporary chats store nothing.
 */

/** One device-tool call: the tool, the arguments the model sent, what the tool gave back, and whether it worked. */
export const toolStepSchema = z
  .object({
    name: z.string().max(100),
    /** The arguments exactly as the model sent them (JSON text). */
    arguments: z.string().max(MAX_STEP_TEXT),
    /** The result exactly as sent back to the model (a failed tool's says so). */
    result: z.string().max(MAX_STEP_TEXT),
    ok: z.boolean(),
  })
  .meta({ id: "ToolStep" });
export type ToolStep = z.infer<typeof toolStepSchema>;

/**
 * The sealed "steps" record of an answer: its web search, its device-tool steps and whether the user's memories
 * went with its turn ("Memory used", docs/issues.md #56), each absent when there was none.
 */
export const answerStepsSchema = z
  .object({
    search: webSearchRecordSchema.optional(),
    tools: z.array(toolStepSchema).max(MAX_TOOL_STEPS).optional(),
    memoryUsed: z.literal(true).optional(),
  })
  .meta({ id: "AnswerSteps" });
export type AnswerSteps = z.infer<typeof answerStepsSchema>;
