import { describe, expect, it } from "vitest";
import { resumedRecord } from "@/lib/server/chat/tool-loop";
import type { WebSearchRecord } from "@/lib/shared/search/record";

/** docs/issues.md #51: the record a continued turn's request starts from (lib/server/chat/tool-loop.ts resumedRecord). */
describe("resumedRecord", () => {
  it("a new turn starts empty, named for this engine", () => {
    expect(resumedRecord(null, "searx.example")).toEqual({ via: "searxng", engine: "searx.example", queries: [], sources: [], status: "ok" });
  });

  it("a continued turn goes on from the echoed record: its queries, sources, held queries, pages and status, copied", () => {
    const echoed: WebSearchRecord = {
      via: "enclave",
      engine: "elsewhere",
      queries: ["kākāpō 2026"],
      sources: [{ title: "A", url: "https://example.org/a" }],
      status: "over_quota",
      held: [{ query: "mail me at a@b.example", kind: "email" }],
      pages: [{ url: "https://example.org/a", status: "ok" }],
    };
    const record = resumedRecord(echoed, "searx.example");
    expect(record).toEqual({ ...echoed, via: "searxng", engine: "searx.example" });
    // The loop adds to its own copy: the echoed body is not changed.
    record.queries.push("more");
    record.sources.push({ title: "B", url: "https://example.org/b" });
    record.pages!.push({ url: "https://example.org/b", status: "failed" });
    expect(echoed.queries).toEqual(["kākāpō 2026"]);
    expect(echoed.sources).toHaveLength(1);
    expect(echoed.pages).toHaveLength(1);
  });
});
