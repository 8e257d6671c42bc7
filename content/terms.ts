/**
 * The Terms of Service (docs/product.md §2 /termsofservice): eleven sections in the spec's order, in plain English.
 * Rules stated here come from the spec: New Zealand law and Auckland courts, liability capped at the
 * amount paid in the preceding three months (docs/product.md §9), refunds only for a verifiable disruption we caused,
 * account closure by contacting us, and the experimental nature of the service.
 */

export interface TermsSection {
  /** Anchor of the section on the page. */
  id: string;
  title: string;
  paragraphs: readonly string[];
}

export const termsIntro =
  'These terms are an agreement between you and Hush ("we", "us", "our") about your use of the Hush ' +
  "website, chat service and apps. Please read them: they are short, and they matter.";

export const termsSections: readonly TermsSection[] = [
  {
    id: "agreement",
    title: "Agreement to these terms",
    paragraphs: [
      "By using Hush, with or without an account, you agree to these terms. If you do not agree, please do not use the service.",
      "If you use Hush on behalf of an organisation, you confirm that you may accept these terms for it, and \"you\" then includes that organisation.",
      "We may update these terms. When we make a significant change we will say so on this page, and where we can, tell account holders by e-mail before it takes effect. Continuing to use Hush after a change means you accept the updated terms.",
    ],
  },
  {
    id: "responsibilities",
    title: "Your responsibilities",
    paragraphs: [
      "Use Hush lawfully. Do not use it to harm others, to break the law, to infringe anyone's rights, or to create content that is abusive, deceptive or illegal.",
      "Do not try to disrupt the service, get around its limits, access other people's data, or probe, scan or test its security without our written permission.",
      "Keep your account secure. You are responsible for what happens under your account, so keep access to your e-mail and sign-in provider safe and tell us promptly if you think your account has been misused.",
      "You are responsible for what you enter into Hush and for how you use its answers. AI output can be wrong or incomplete: check anything important before you rely on it, especially legal, medical, financial or safety matters.",
    ],
  },
  {
    id: "service-features",
    title: "Service features",
    paragraphs: [
      "Hush is offered in two forms. Cloud is for individuals and small businesses: your requests are sent, encrypted in transit, to third-party compute partners that run the AI models and process the requests to produce answers. We choose partners that handle data with encryption, but the processing happens on their infrastructure.",
      "Enterprise is for larger organisations: data is processed locally, on-site or in a chosen region, which gives tighter control over where it goes. Enterprise is arranged with us directly, and a separate written agreement may add to or replace parts of these terms.",
      "Features, models and usage limits may change as the service develops. The free tier has usage limits; paid plans raise them as described on the pricing page.",
    ],
  },
  {
    id: "payment",
    title: "Payment and subscription",
    paragraphs: [
      "Paid plans are billed in advance for the period you choose, through our card payment provider. Prices are shown before you pay, including any launch offer.",
      "Fees are not refundable, except at our discretion where you can show a verifiable disruption to the service that we caused. If you believe that has happened, contact us and describe it.",
      "If a payment fails or is not made, we may suspend paid features, or the account, until it is paid. You can manage or cancel your subscription from your account settings; a cancellation takes effect at the end of the period already paid for.",
    ],
  },
  {
    id: "privacy",
    title: "Data privacy and security",
    paragraphs: [
      "You keep ownership of everything you enter into Hush and of the answers it gives you. We do not use your data to train models, we do not sell it, and we do not share it with third parties other than the compute partners that process your requests.",
      "History is off by default. If you turn it on, saved messages are encrypted at rest with a key unique to your account. Chats you have without an account are not stored by us.",
      "Hush is an experimental service, not an enterprise-grade system. We work to protect your data, but we cannot promise that it is free of vulnerabilities, and you should decide for yourself whether it is suitable for a given piece of information.",
    ],
  },
  {
    id: "liability",
    title: "Warranty disclaimer and limitation of liability",
    paragraphs: [
      "Hush is provided \"as is\" and \"as available\". To the extent the law allows, we give no warranties, express or implied, including that the service will be uninterrupted, error-free or fit for a particular purpose, or that its answers will be accurate.",
      "To the extent the law allows, we are not liable for any indirect or consequential loss, such as lost profits, lost data or lost business, arising from your use of Hush.",
      "Our total liability to you for any claim about the service is limited to the amount you paid us in the three months before the event that gave rise to the claim. If you have paid nothing, that amount is zero.",
      "Nothing in these terms removes rights you have under consumer law that cannot be excluded, such as the Consumer Guarantees Act 1993 where it applies. Where you use Hush for a business, you agree that the Consumer Guarantees Act does not apply.",
    ],
  },
  {
    id: "termination",
    title: "Termination",
    paragraphs: [
      "You can stop using Hush at any time. To close your account, contact us and we will close it and delete the data held for it.",
      "We may suspend or close an account that breaks these terms, that puts the service or other users at risk, or as required by law. Where reasonable, we will tell you first and explain why.",
      "Sections of these terms that by their nature should continue after closure, such as the limitation of liability and governing law, continue to apply.",
    ],
  },
  {
    id: "governing-law",
    title: "Governing law",
    paragraphs: [
      "These terms are governed by the laws of New Zealand. Any dispute about them or about Hush will be decided by the courts of Auckland, New Zealand, and you and we both submit to their jurisdiction.",
    ],
  },
  {
    id: "third-parties",
    title: "Third parties",
    paragraphs: [
      "Hush relies on third parties, such as compute partners, a sign-in provider and a card payment provider, and may link to other websites. We are not responsible for their services, content or availability, and their own terms apply to your use of them.",
    ],
  },
  {
    id: "independent-contractor",
    title: "Independent contractor",
    paragraphs: [
      "You and we are independent parties. Nothing in these terms creates a partnership, joint venture, employment or agency relationship between us, and neither of us may bind the other.",
    ],
  },
  {
    id: "experimental",
    title: "Experimental nature of the service",
    paragraphs: [
      "Hush is new and experimental. Features may change, be paused or be withdrawn, the service may have interruptions, and AI models can produce mistakes. Please verify important information and keep your own copies of anything you cannot afford to lose.",
    ],
  },
];
