import { siteConfig } from "@/config/site";

/** Header links for a visitor (spec §2); the account-aware variant comes with sign-in. */
export const headerLinks = [
  { href: siteConfig.routes.pricing, label: "Pricing", primary: false },
  { href: siteConfig.routes.chat, label: "Chat", primary: false },
  { href: siteConfig.routes.signup, label: "Sign Up", primary: true },
] as const;
