import { describe, expect, it } from "vitest";
import { heldBackKind } from "@/lib/shared/search/personal-data";

/** docs/issues.md #54, finding 7: model-written queries with personal data are held back. */
describe("the personal-data check on search queries", () => {
  it("holds back an e-mail address, a phone number, a Luhn-valid card number and a valid IBAN", () => {
    expect(heldBackKind("who owns jane.doe@example.com", "who wrote to me?")).toBe("email");
    expect(heldBackKind("reverse lookup +64 21 555 0100", "who called me?")).toBe("phone");
    expect(heldBackKind("card 4111 1111 1111 1111 balance", "what is my balance?")).toBe("card");
    expect(heldBackKind("bank of GB82 WEST 1234 5698 7654 32", "which bank is this?")).toBe("iban");
  });

  it("sends what only looks like them: a failed Luhn or mod-97 check, years, ordinary numbers", () => {
    expect(heldBackKind("card 4111 1111 1111 1112 balance", "x")).toBeNull();
    expect(heldBackKind("bank of GB82 WEST 1234 5698 7654 33", "x")).toBeNull();
    expect(heldBackKind("population of France 2019-2020", "x")).toBeNull();
    expect(heldBackKind("population of France in 2020 and the year before?", "and the year before?")).toBeNull();
    expect(heldBackKind("iPhone 15 price", "x")).toBeNull();
  });

  it("sends an item the user's own message holds: they asked to search for it", () => {
    expect(heldBackKind("who owns jane.doe@example.com", "Search for Jane.Doe@example.com please")).toBeNull();
    expect(heldBackKind("+6421 5550100 spam", "is +64 21 555 0100 a spam number?")).toBeNull();
    expect(heldBackKind("jane.doe@example.com and bob@example.org", "search jane.doe@example.com")).toBe("email");
  });
});
