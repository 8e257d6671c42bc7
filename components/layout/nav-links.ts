import { siteConfig } from "@/config/site";

/** What the header needs to know about the person looking at it; null is a visitor. */
export interface HeaderAccount {
  /** Subscription plan (docs/product.md §3); null while unknown (not fetched yet, or the fetch failed). */
  plan: "Free" | "Pro" | null;
}

export interface HeaderLink {
  href: string;
  /** Visible text, or the accessible name of an icon link. */
  label: string;
  /** plain: text link; primary: filled button; settings: gear icon button. */
  kind: "plain" | "primary" | "settings";
}

/**
 * The header links of docs/product.md §2: Pricing ("Get Pro" when signed in, hidden on the Pro plan), Chat, then
 * a settings icon when signed in or "Sign Up" otherwise.
 */
export function headerLinksFor(account: HeaderAccount | null): HeaderLink[] {
  const links: HeaderLink[] = [];
  if (account?.plan !== "Pro") {
    links.push({ href: siteConfig.routes.pricing, label: account ? "Get Pro" : "Pricing", kind: "plain" });
  }
  links.push({ href: siteConfig.routes.chat, label: "Chat", kind: "plain" });
  links.push(
    account
      ? { href: siteConfig.routes.settings, label: "Settings", kind: "settings" }
      : { href: siteConfig.routes.signup, label: "Sign Up", kind: "primary" },
  );
  return links;
}
