import { z } from "@/lib/shared/zod";

/**
 * What a turn with "Search the web" on tells the user, and what a saved chat keeps sealed with the answer
 * the engine, every query exactly as sent, the sources listed under the answer, and
 * how the search went. Built by the server for standard models (lib/server/search/run.ts) and by the browser
 * from the enclave's `tinfoil.web_search_call` events for confidential ones (lib/browser/search/enclave-stream.ts).
 */
export const webSearchSourceSchema = z.object({
  title: z.string().max(500),
  url: z.string().max(2000),
});
export type WebSearchSource = z.infer<typeof webSearchSourceSchema>;

/**
 * One page the turn's model asked to read (docs/issues.md #51): its URL with scheme (after redirects when read), and
 * "ok" (read), "failed" (asked for, not read) or "refused" (not contacted: not allowed, or not this turn's to read).
 */
export const readPageRecordSchema = z.object({
  url: z.string().max(2000),
  status: z.enum(["ok", "failed", "refused"]),
});
export type ReadPageRecord = z.infer<typeof readPageRecordSchema>;

/** Pages one answer may read at most: further read calls are answered without a read (lib/server/chat/tool-read-page.ts). */
export const MAX_TURN_PAGES = 10;

export const webSearchRecordSchema = z
  .object({
    /** "searxng": the operator's SearXNG (standard models); "enclave": inside the verified enclave (confidential). */
    via: z.enum(["searxng", "enclave"]),
    /** Who ran the queries, as shown: the SearXNG host, or the enclave's host. */
    engine: z.string().max(300),
    /** Every query exactly as sent to the engine, in order. */
    queries: z.array(z.string().max(500)).max(10),
    /** The results given to the model, numbered from 1 in this order (the answer's [n] markers). */
    sources: z.array(webSearchSourceSchema).max(60),
    /**
     * "ok"; "failed": the engine did not answer (the model answered without results); "blocked": the enclave's
     * personal-data check kept the query from the engine; "over_quota": today's searches are used up.
     */
    status: z.enum(["ok", "failed", "blocked", "over_quota"]),
    /**
     * Model-written queries held back by the personal-data check (./personal-data.ts): never sent to any engine,
     * shown as "not sent" with why. Absent when none was.
     */
    held: z
      .array(z.object({ query: z.string().max(500), kind: z.enum(["email", "phone", "card", "iban"]) }))
      .max(10)
      .optional(),
    /**
     * The pages read for the answer, in order (read_page on the standard path, the router's fetch on the
     * confidential one), shown as "Read: host/path". Absent when none was.
     */
    pages: z.array(readPageRecordSchema).max(MAX_TURN_PAGES).optional(),
  })
  .meta({ id: "WebSearchRecord" });
export type WebSearchRecord = z.infer<typeof webSearchRecordSchema>;
