import { describe, expect, it } from "vitest";
import { landingJsonLd, publicPageMetadata, serializeJsonLd } from "@/lib/server/seo";

describe("publicPageMetadata", () => {
  it("sets the canonical URL, Open Graph and Twitter card of a page, with the generated images", () => {
    const m = publicPageMetadata({ title: "Contact", description: "Reach us.", path: "/contact" });
    expect(m.title).toBe("Contact");
    expect(m.alternates?.canonical).toBe("/contact");
    expect(m.openGraph).toMatchObject({ url: "/contact", title: "Contact · Hush", description: "Reach us." });
    expect(m.openGraph?.images).toEqual([expect.objectContaining({ url: "/opengraph-image", width: 1200, height: 630 })]);
    expect(m.twitter).toMatchObject({ card: "summary_large_image", title: "Contact · Hush" });
  });

  it("keeps the site's default title for the landing page", () => {
    const m = publicPageMetadata({ title: null, description: "d", path: "/" });
    expect(m.title).toBeUndefined();
    expect(m.openGraph?.title).toBe("Hush: Private, encrypted AI chat");
  });
});

describe("landing JSON-LD", () => {
  it("describes the organisation and the product under the app's origin", () => {
    const data = landingJsonLd("https://hush.example/", "team@hush.example") as { "@graph": Array<Record<string, unknown>> };
    const [org, product] = data["@graph"];
    expect(org).toMatchObject({ "@type": "Organization", "@id": "https://hush.example/#organization", email: "team@hush.example" });
    expect(product).toMatchObject({ "@type": "SoftwareApplication", publisher: { "@id": "https://hush.example/#organization" } });
  });

  it("escapes '<' so a value cannot close the script tag", () => {
    const out = serializeJsonLd({ name: "</script><script>alert(1)</script>" });
    expect(out).not.toContain("<");
    expect(JSON.parse(out)).toEqual({ name: "</script><script>alert(1)</script>" });
  });
});
