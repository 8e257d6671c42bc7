import { z } from "@/lib/shared/zod";
import { webSearchRecordSchema } from "@/lib/shared/search/record";
import { MAX_STEP_TEXT, MAX_TOOL_STEPS } from "@/lib/shared/llm/device-tools";

// An answer's steps (docs/issues.md #50), sealed in a saved message's field "steps".

const toolStepSchema = z
  .object({
    name: z.string().max(100),
    arguments: z.string().max(MAX_STEP_TEXT),
    result: z.string().max(MAX_STEP_TEXT),
    ok: z.boolean(),
  })
  .meta({ id: "ToolStep" });
export type ToolStep = z.infer<typeof toolStepSchema>;

export const answerStepsSchema = z
  .object({
    search: webSearchRecordSchema.optional(),
    tools: z.array(toolStepSchema).max(MAX_TOOL_STEPS).optional(),
    memoryUsed: z.literal(true).optional(),
  })
  .meta({ id: "AnswerSteps" });
export type AnswerSteps = z.infer<typeof answerStepsSchema>;
