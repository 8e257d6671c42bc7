import { describe, expect, it } from "vitest";
import { headerLinksFor } from "@/components/layout/nav-links";

/** docs/product.md §2 "Header and footer": the header's links by who is looking. */
describe("headerLinksFor", () => {
  const view = (links: ReturnType<typeof headerLinksFor>) => links.map((l) => `${l.label} ${l.href} ${l.kind}`);

  it("shows a visitor Pricing, Chat and Sign Up", () => {
    expect(view(headerLinksFor(null))).toEqual(["Pricing /pricing plain", "Chat /chat plain", "Sign Up /signup primary"]);
  });

  it("shows a signed-in Free user Get Pro and the settings button instead of Sign Up", () => {
    expect(view(headerLinksFor({ plan: "Free" }))).toEqual([
      "Get Pro /pricing plain",
      "Chat /chat plain",
      "Settings /settings settings",
    ]);
  });

  it("keeps Get Pro while the plan is unknown", () => {
    expect(headerLinksFor({ plan: null }).map((l) => l.label)).toEqual(["Get Pro", "Chat", "Settings"]);
  });

  it("hides the pricing button on the Pro plan", () => {
    expect(view(headerLinksFor({ plan: "Pro" }))).toEqual(["Chat /chat plain", "Settings /settings settings"]);
  });
});
