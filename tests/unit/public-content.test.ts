import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareColumns, landingContent } from "@/content/landing";
import { privacySections, providersSection } from "@/content/privacy";
import { termsSections } from "@/content/terms";

const root = path.resolve(__dirname, "../..");

describe("landing content (docs/product.md §1 and §2)", () => {
  it("lists the 12 industries of docs/product.md §2 in order, each with its own description", () => {
    const items = landingContent.industries.items;
    expect(items.map((i) => i.name)).toEqual([
      "Legal Services",
      "Accounting",
      "Finance and Banking",
      "Healthcare",
      "Real Estate and Construction",
      "Public Sector",
      "Telecommunications",
      "Energy and Utilities",
      "Retail and Commerce",
      "Education and Research",
      "Pharma and Biotech",
      "Insurance",
    ]);
    expect(new Set(items.map((i) => i.description)).size).toBe(12);
    for (const i of items) expect(i.description.length).toBeGreaterThan(200);
  });

  it("reproduces the Compare table exactly", () => {
    expect(compareColumns).toEqual(["ChatGPT", "Cloud", "Enterprise"]);
    const yesNo = (v: boolean | string) => (v === true ? "yes" : v === false ? "no" : v);
    expect(landingContent.compare.rows.map((r) => [r.label, ...compareColumns.map((c) => yesNo(r.values[c]))])).toEqual([
      ["Sovereignty", "no", "yes", "yes"],
      ["On-Premise", "no", "no", "no"],
      ["Encryption", "Basic", "High", "Max"],
      ["Custom", "yes", "yes", "yes"],
      ["Scalability", "yes", "yes", "yes"],
    ]);
  });

  it("has five promises and the calls to action of docs/product.md §2", () => {
    expect(landingContent.promises.items).toHaveLength(5);
    const { hero, closing, privateAndSecure } = landingContent;
    expect([hero.title, hero.primary, hero.secondary]).toEqual([
      "Chat Freely",
      { label: "Try for free", href: "/chat" },
      { label: "Contact us", href: "/contact" },
    ]);
    expect([closing.primary, closing.secondary]).toEqual([
      { label: "Try for free", href: "/chat" },
      { label: "Chat with us", href: "/contact" },
    ]);
    expect(privateAndSecure.offerings.map((o) => [o.name, o.cta.href])).toEqual([
      ["Cloud", "/chat"],
      ["Enterprise", "/contact"],
    ]);
  });

  it("words the privacy promises as the mechanisms work (docs/issues.md #8) and links them to /privacy", () => {
    const { promises, hero } = landingContent;
    const byTitle = Object.fromEntries(promises.items.map((p) => [p.title, p.body]));
    expect(byTitle["No access to your conversations"]).toBe(
      "Saved chats are encrypted with a key only you hold, so we cannot read them. Messages pass through " +
        "Hush's servers in memory to reach the model and are never stored or logged.",
    );
    expect(byTitle["No training on your data"]).toBe("Hush never uses what you type or upload to train or tune a model.");
    expect(byTitle["No third-party sharing"]).toMatch(/model provider .* named on our privacy page/);
    expect(promises.more.href).toBe("/privacy");
    expect(hero.lead).toContain("encrypted in your browser with a key only you hold");
    // No claim the code cannot keep: no "encrypted compute"/"encrypted processing" for every provider,
    // no server-held "data key unique to your account" for saved history.
    const all = JSON.stringify(landingContent);
    expect(all).not.toMatch(/encrypted compute|Encrypted processing|data key unique|processes them only/);
  });

  it("serves the featured-on badge image from public/", () => {
    const src = landingContent.featured.image.src;
    expect(src.startsWith("/")).toBe(true);
    expect(readFileSync(path.join(root, "public", src), "utf8")).toContain("<svg");
    expect(landingContent.featured.href).toMatch(/^https:\/\//);
  });
});

describe("terms of service (docs/product.md §2)", () => {
  it("has eleven sections with unique anchors and the spec's rules", () => {
    expect(termsSections).toHaveLength(11);
    expect(new Set(termsSections.map((s) => s.id)).size).toBe(11);
    const text = termsSections.flatMap((s) => s.paragraphs).join(" ");
    expect(text).toContain("laws of New Zealand");
    expect(text).toContain("courts of Auckland");
    expect(text).toContain("three months");
    expect(text).toMatch(/experimental/i);
  });
});

describe("privacy page (docs/issues.md #8)", () => {
  it("says what the server sees, what is stored, and what runs in the browser", () => {
    const text = [providersSection.lead, ...privacySections.flatMap((s) => s.paragraphs)].join(" ");
    expect(text).toContain("passes through Hush's servers in memory");
    expect(text).toMatch(/never store that text and never write it to a log/);
    expect(text).toContain("Chats without an account are never stored");
    expect(text).toContain("encrypted in your browser with a key only you hold");
    expect(text).toMatch(/no analytics, no advertising, no third-party scripts or fonts/);
  });
});

describe("client JavaScript of the public pages", () => {
  /**
   * The issue allows client code only for the industry selector and the mobile menu. The header's
   * navigation island holds the mobile menu together with the account-aware links (docs/product.md §2: the
   * settings icon and "Get Pro" when signed in), which cannot be known in a prerendered page.
   */
  it("marks only the industry selector and the header navigation (with its mobile menu) as client components", () => {
    const dirs = ["components/landing", "components/layout", "app/(site)/contact", "app/(site)/termsofservice", "app/(site)/privacy"];
    const clientFiles = dirs.flatMap((dir) =>
      readdirSync(path.join(root, dir))
        .filter((f) => /\.tsx?$/.test(f))
        .filter((f) => /^\s*["']use client["']/.test(readFileSync(path.join(root, dir, f), "utf8")))
        .map((f) => `${dir}/${f}`),
    );
    expect(clientFiles.sort()).toEqual([
      "components/landing/industry-selector.tsx",
      "components/layout/header-nav.tsx",
      "components/layout/mobile-menu.tsx",
    ]);
  });
});
