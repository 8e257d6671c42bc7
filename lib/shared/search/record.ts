import { z } from "@/lib/shared/zod";

// What a turn with "Search the web" shows and a saved chat keeps: the engine, every query exactly as sent, the sources, how it went.
const webSearchSourceSchema = z.object({
  title: z.string().max(500),
  url: z.string().max(2000),
});
export type WebSearchSource = z.infer<typeof webSearchSourceSchema>;

const readPageRecordSchema = z.object({
  url: z.string().max(2000),
  status: z.enum(["ok", "failed", "refused"]),
});
export type ReadPageRecord = z.infer<typeof readPageRecordSchema>;

export const MAX_TURN_PAGES = 10;

export const webSearchRecordSchema = z
  .object({
    via: z.enum(["searxng", "enclave"]),
    engine: z.string().max(300),
    queries: z.array(z.string().max(500)).max(10),
    sources: z.array(webSearchSourceSchema).max(60),
    status: z.enum(["ok", "failed", "blocked", "over_quota"]),
    held: z
      .array(z.object({ query: z.string().max(500), kind: z.enum(["email", "phone", "card", "iban"]) }))
      .max(10)
      .optional(),
    pages: z.array(readPageRecordSchema).max(MAX_TURN_PAGES).optional(),
  })
  .meta({ id: "WebSearchRecord" });
export type WebSearchRecord = z.infer<typeof webSearchRecordSchema>;
