import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SignupNotices } from "@/components/auth/notices";

const render = (devLink: string | null) =>
  renderToStaticMarkup(createElement(SignupNotices, { reason: null, sentTo: "a@example.test", devLink, error: null, errorId: "e" }));

describe("sign-up notices (docs/issues.md #56)", () => {
  it("with an e-mail sent: only the green notice that it was sent", () => {
    const html = render(null);
    expect(html).toContain("A verification e-mail was sent to");
    expect(html).toContain("bg-green-50");
    expect(html).not.toContain("no e-mail was sent");
  });

  it("in development without EMAIL_SERVER: only the amber notice that none was sent, with the link", () => {
    const html = render("http://localhost/signup?token=x");
    expect(html).not.toContain("verification e-mail was sent");
    expect(html).not.toContain("bg-green-50");
    expect(html).toContain("Development: no e-mail was sent to");
    expect(html).toContain('href="http://localhost/signup?token=x"');
  });
});
