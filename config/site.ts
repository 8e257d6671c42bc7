/** Product-wide names and routes shared by the layout and metadata (docs/product.md §2). */
export const siteConfig = {
  name: "Hush",
  tagline: "Private, encrypted AI chat",
  description:
    "Hush is a private AI chat: conversations are encrypted, never used for training, never shared, with no ads or trackers.",
  routes: {
    home: "/",
    chat: "/chat",
    pricing: "/pricing",
    signup: "/signup",
    settings: "/settings",
    terms: "/termsofservice",
    privacy: "/privacy",
    contact: "/contact",
  },
} as const;
