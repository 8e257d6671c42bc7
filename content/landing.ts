/**
 * Every word of the landing page (docs/product.md §1 and §2), in the order the sections appear.
 * Components only lay this out; a copy change happens here and nowhere else.
 *
 * Each claim names a mechanism Hush really has (docs/issues.md #8 made them literal; /privacy says the details,
 * content/privacy.ts): saved chats encrypted in the browser with a key only the user holds (the vault),
 * messages passing through the server in memory only, no storage of visitors' chats, no training, no
 * sharing beyond the model provider that answers a request (named on /privacy), and no third-party
 * requests from any public page (e2e/public-pages-landing.spec.ts).
 */

/** A link styled as a button. */
export interface Cta {
  label: string;
  href: string;
}

/** An industry of the selector (docs/product.md §3: Industry has a name and a description). */
export interface Industry {
  name: string;
  description: string;
}

export interface Point {
  title: string;
  body: string;
}

/** One of the two offerings of docs/product.md §1, shown as a card in "Private and secure". */
export interface Offering {
  name: string;
  audience: string;
  summary: string;
  points: readonly string[];
  cta: Cta;
  recommended: boolean;
}

/** Columns and rows of the Compare table, exactly as docs/product.md §2 gives them. */
export const compareColumns = ["ChatGPT", "Cloud", "Enterprise"] as const;
export type CompareColumn = (typeof compareColumns)[number];
/** true and false render as yes and no; a string is shown as written. */
export type CompareValue = boolean | string;
export interface CompareRow {
  label: string;
  values: Readonly<Record<CompareColumn, CompareValue>>;
}

export interface LandingContent {
  hero: { eyebrow: string; title: string; lead: string; primary: Cta; secondary: Cta; note: string };
  featured: { label: string; href: string; image: { src: string; alt: string; width: number; height: number } };
  privateAndSecure: { title: string; lead: string; offerings: readonly [Offering, Offering] };
  why: { title: string; lead: string; points: readonly Point[] };
  promises: { title: string; lead: string; items: readonly Point[]; more: Cta };
  industries: { title: string; lead: string; items: readonly Industry[]; emptyHint: string };
  compare: { title: string; lead: string; caption: string; rows: readonly CompareRow[] };
  basedIn: { title: string; body: string; places: readonly string[] };
  closing: { title: string; body: string; primary: Cta; secondary: Cta };
}

const routes = { chat: "/chat", contact: "/contact", privacy: "/privacy" } as const;

export const landingContent: LandingContent = {
  hero: {
    eyebrow: "Private, encrypted AI chat",
    title: "Chat Freely",
    lead:
      "Ask, draft and think out loud with an AI that keeps your words to itself. Saved conversations are " +
      "encrypted in your browser with a key only you hold, never used for training and never shared.",
    primary: { label: "Try for free", href: routes.chat },
    secondary: { label: "Contact us", href: routes.contact },
    note: "No account needed to start. Chats without an account are never stored.",
  },

  featured: {
    label: "Featured on",
    // The directory's listing page; the badge image itself is served from our own origin.
    href: "https://theresanaiforthat.com/",
    image: { src: "/badges/featured-on-ai-directory.svg", alt: "Featured on AI directory", width: 220, height: 56 },
  },

  privateAndSecure: {
    title: "Private and secure",
    lead: "Two ways to use Hush, one rule for both: your conversations belong to you.",
    offerings: [
      {
        name: "Cloud",
        audience: "For individuals and small businesses",
        summary: "Processing with trusted compute partners, encrypted in transit all the way. Open a browser and start, free.",
        points: [
          "Messages travel encrypted, through our servers in memory only, to the model provider named on our privacy page",
          "History is off by default; turn it on and saved chats are encrypted in your browser with a key only you hold",
          "Free to try, no account needed",
        ],
        cta: { label: "Try for free", href: routes.chat },
        recommended: true,
      },
      {
        name: "Enterprise",
        audience: "For large businesses",
        summary: "On-site or localised processing, under your organisation's control.",
        points: [
          "Processing kept on your site or in your region",
          "Tighter control over where data goes and who runs the model",
          "Set up with our team around your requirements",
        ],
        cta: { label: "Contact us", href: routes.contact },
        recommended: false,
      },
    ],
  },

  why: {
    title: "Why Hush",
    lead:
      "Many AI chat services keep what you type, and some use it to train their next model. Hush is built " +
      "the other way round: privacy is the product, not a setting you have to find.",
    points: [
      {
        title: "Encrypted with your own key",
        body:
          "When you save history, your browser encrypts every chat with a key only you hold, unlocked by your " +
          "passkey, passphrase or recovery code, before anything reaches our database.",
      },
      {
        title: "Nothing kept for visitors",
        body: "Chat without an account and nothing of the conversation is stored on our side.",
      },
      {
        title: "No GPU needed",
        body:
          "The models run on compute we arrange with trusted partners, reached only over encrypted connections, " +
          "not on your device. A browser on any laptop or phone is enough.",
      },
    ],
  },

  promises: {
    title: "Five promises",
    lead: "What we commit to for every conversation, whichever plan you use.",
    more: { label: "What Hush can see, in detail", href: routes.privacy },
    items: [
      {
        title: "Confidential and encrypted",
        body:
          "Conversations travel over TLS, and saved chats are encrypted in your browser with a key only you " +
          "hold before they are stored.",
      },
      {
        title: "No training on your data",
        body: "Hush never uses what you type or upload to train or tune a model.",
      },
      {
        title: "No access to your conversations",
        body:
          "Saved chats are encrypted with a key only you hold, so we cannot read them. Messages pass through " +
          "Hush's servers in memory to reach the model and are never stored or logged.",
      },
      {
        title: "No third-party sharing",
        body:
          "We do not sell or share your conversations. The only other party that sees a message is the model " +
          "provider that processes it to write the answer, named on our privacy page.",
      },
      {
        title: "No ads or trackers",
        body:
          "No advertising, analytics, third-party scripts or fonts. Our pages load nothing from any other " +
          "site, and an automated test checks it.",
      },
    ],
  },

  industries: {
    title: "Made for confidential work",
    lead: "Choose an industry to see what confidentiality means there.",
    emptyHint: "Select an industry above to read about it.",
    items: [
      {
        name: "Legal Services",
        description:
          "Lawyers owe their clients a duty of confidence, and legal professional privilege protects " +
          "communications made to give or receive legal advice. Handing privileged material to an outside " +
          "service that keeps or reuses it can put that protection at risk and breach professional conduct " +
          "rules. Hush never trains on case notes or drafts, and saved chats are encrypted with your own key.",
      },
      {
        name: "Accounting",
        description:
          "Accountants hold clients' financial records, tax affairs and business plans, and professional " +
          "codes of ethics require them to keep that information confidential unless the client agrees or " +
          "the law requires disclosure. Working through the numbers with an AI should not mean copying a " +
          "client's ledger to a service that keeps it. Hush shares nothing and stores no visitor chats at all.",
      },
      {
        name: "Finance and Banking",
        description:
          "Banks owe customers a duty of confidentiality over their accounts and dealings, recognised in " +
          "common law since Tournier v National Provincial Bank (1924), and bank secrecy, privacy and " +
          "anti-money-laundering rules limit who may see customer data. Market-sensitive information adds " +
          "insider-trading risk. Hush lets analysts draft and summarise without feeding a training pipeline.",
      },
      {
        name: "Healthcare",
        description:
          "Patient records are among the most sensitive data there is. Clinicians owe patients a duty of " +
          "confidence, and rules such as New Zealand's Health Information Privacy Code and Australia's " +
          "Privacy Act limit how health information is collected, used and disclosed. Identifiable patient " +
          "details do not belong in a system that learns from them; Hush never trains on what you type.",
      },
      {
        name: "Real Estate and Construction",
        description:
          "Property deals and building projects run on information that is valuable before it is public: " +
          "tender prices, bids, valuations, site acquisitions and design documents. A leaked tender price " +
          "or a client's negotiating position can cost a contract or breach an agent's duty to the client. " +
          "Hush keeps those figures out of training data and away from third parties.",
      },
      {
        name: "Public Sector",
        description:
          "Agencies hold citizens' personal information and official material protected under frameworks " +
          "such as New Zealand's Protective Security Requirements and Australia's Protective Security Policy " +
          "Framework. Each decides which systems may hold which information, and where processing happens " +
          "matters. Hush Enterprise offers localised processing under tighter control for that conversation.",
      },
      {
        name: "Telecommunications",
        description:
          "Network operators carry their customers' calls, messages and location data, and rules such as " +
          "New Zealand's Telecommunications Information Privacy Code and Part 13 of Australia's " +
          "Telecommunications Act restrict its use and disclosure. Network designs and security details are " +
          "sensitive too. Hush keeps engineering notes and customer queries encrypted and out of training data.",
      },
      {
        name: "Energy and Utilities",
        description:
          "Power, gas and water networks are critical infrastructure: their designs, weak points and " +
          "operating data are guarded because misuse could harm the public, and Australia's Security of " +
          "Critical Infrastructure Act 2018 sets duties for these assets. Customers' usage data is personal " +
          "information as well. Hush keeps that material out of services that learn from their users' input.",
      },
      {
        name: "Retail and Commerce",
        description:
          "Retailers hold customer details, order histories and loyalty data, along with supplier terms, " +
          "margins and promotion plans. Privacy law governs the customer data, and the commercial plans are " +
          "trade secrets a competitor would value. Hush lets teams draft and analyse without their data " +
          "becoming someone else's training material.",
      },
      {
        name: "Education and Research",
        description:
          "Schools and universities keep student records, grades and wellbeing notes, and researchers work " +
          "with unpublished results, grant applications and participant data whose ethics approvals limit " +
          "who may see it. Peer review is confidential by convention. Hush keeps drafts and data encrypted, " +
          "unshared and out of training data.",
      },
      {
        name: "Pharma and Biotech",
        description:
          "Formulas, assay results and trial data are a drug developer's most valuable assets, and an " +
          "invention disclosed before a patent application is filed can weaken that application. Clinical " +
          "trial records also carry participants' health information. Hush keeps research conversations " +
          "encrypted, unshared and never used for training.",
      },
      {
        name: "Insurance",
        description:
          "Insurers collect health, financial and claims information to price and settle policies, and " +
          "privacy law limits how it may be used and disclosed. Claim files can also hold legal advice and " +
          "investigation notes. Hush gives underwriters and claims teams an assistant that keeps that " +
          "information encrypted, unshared and out of training data.",
      },
    ],
  },

  compare: {
    title: "Compare",
    lead: "How Hush Cloud and Hush Enterprise compare with ChatGPT.",
    caption: "Hush Cloud and Enterprise compared with ChatGPT",
    rows: [
      { label: "Sovereignty", values: { ChatGPT: false, Cloud: true, Enterprise: true } },
      { label: "On-Premise", values: { ChatGPT: false, Cloud: false, Enterprise: false } },
      { label: "Encryption", values: { ChatGPT: "Basic", Cloud: "High", Enterprise: "Max" } },
      { label: "Custom", values: { ChatGPT: true, Cloud: true, Enterprise: true } },
      { label: "Scalability", values: { ChatGPT: true, Cloud: true, Enterprise: true } },
    ],
  },

  basedIn: {
    title: "Based in New Zealand and Australia",
    body:
      "Hush is built and run by a small team in Auckland, New Zealand and in Australia. When you write to us, " +
      "you reach the people who build it.",
    places: ["Auckland, New Zealand", "Australia"],
  },

  closing: {
    title: "Start a private conversation",
    body: "Try Hush free in your browser, or talk to us about a deployment for your organisation.",
    primary: { label: "Try for free", href: routes.chat },
    secondary: { label: "Chat with us", href: routes.contact },
  },
};
