import { describe, expect, it } from "vitest";
import { NOT_A_LIMIT, USAGE_LIMIT_MESSAGE, failureDetail, sendErrorOutcome } from "@/lib/browser/chat/send-errors";

describe("chat send failures (docs/product.md §8 text kept, plus one line on what happened)", () => {
  it("keeps the spec's any-other-failure text for 5xx and network errors", () => {
    expect(sendErrorOutcome(502, "x", false)).toMatchObject({ kind: "message", text: USAGE_LIMIT_MESSAGE });
    expect(sendErrorOutcome(0, "Network error", true)).toMatchObject({ kind: "message", text: USAGE_LIMIT_MESSAGE });
  });

  it("says which part failed, from the status and the server's sentence", () => {
    expect(failureDetail(502, "The model service is unavailable right now. Please try again later.")).toBe(`The model did not answer: the model service failed. ${NOT_A_LIMIT}`);
    expect(failureDetail(504, "The model took too long to answer. Please try again.")).toBe(`The model did not answer in time. ${NOT_A_LIMIT}`);
    expect(failureDetail(502, "The answer was cut off before it finished. Please try again.")).toMatch(/dropped before the answer finished/);
    expect(failureDetail(0, "Network error")).toBe(`The connection dropped: Hush could not be reached. ${NOT_A_LIMIT}`);
    expect(failureDetail(0, "The connection was lost while the answer was streaming.")).toBe(`The connection dropped while the answer was arriving. ${NOT_A_LIMIT}`);
    expect(failureDetail(500, "The PDF could not be read in time.")).toBe(`The document could not be read. ${NOT_A_LIMIT}`);
  });
});
