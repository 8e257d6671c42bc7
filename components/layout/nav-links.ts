import { siteConfig } from "@/config/site";

/** Null is a visitor. */
export interface HeaderAccount {
  /** docs/product.md §3; null while unknown. */
  plan: "Free" | "Pro" | null;
}

export interface HeaderLink {
  href: string;
  label: string;
  kind: "plain" | "primary" | "settings";
}

/** The header links (docs/product.md §2). */
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
