import { siteConfig } from "@/config/site";
import type { AccountState } from "@/lib/account/client";

export interface HeaderLink {
  href: string;
  label: string;
  kind: "plain" | "primary" | "settings";
}

/**
 * The header's links for an account state (spec §2): Pricing, hidden for Pro and reading "Get Pro" when
 * signed in; Chat; the settings icon when signed in, otherwise Sign Up.
 */
export function headerLinks(account: AccountState): HeaderLink[] {
  const signedIn = account.user !== null;
  const links: HeaderLink[] = [];
  if (account.subscription?.plan !== "Pro") {
    links.push({ href: siteConfig.routes.pricing, label: signedIn ? "Get Pro" : "Pricing", kind: "plain" });
  }
  links.push({ href: siteConfig.routes.chat, label: "Chat", kind: "plain" });
  links.push(
    signedIn
      ? { href: siteConfig.routes.settings, label: "Settings", kind: "settings" }
      : { href: siteConfig.routes.signup, label: "Sign Up", kind: "primary" },
  );
  return links;
}
