/**
 * The words of /privacy (docs/issues.md #8, inference privacy): what Hush can and cannot see, said plainly.
 * Each sentence names a mechanism that exists, with the code or test that holds it:
 * - messages pass through the server in memory only: lib/server/chat (no write of a visitor turn; nothing
 *   user-written is logged), tests/route/chat.test.ts;
 * - saved chats are encrypted in the browser with a key only the user holds: the vault (docs/issues.md #8);
 * - the provider of each model and what it keeps: lib/server/llm/providers.ts, set by the operator
 *   (LLM_<TIER>_PROVIDER_NAME / LLM_<TIER>_RETENTION, docs/providers.md);
 * - nothing from another site in the browser: e2e/public-pages-site.spec.ts "no trackers".
 * The provider table is filled in from the server's configuration by app/(site)/privacy/page.tsx.
 */

export interface PrivacySection {
  id: string;
  title: string;
  paragraphs: readonly string[];
}

export const privacyIntro =
  "What happens to what you type, precisely: which company's model answers you, what passes through our " +
  "servers, and what we store.";

/** Shown above the provider table. */
export const providersSection = {
  id: "providers",
  title: "Who answers your messages",
  lead:
    "A model can only answer what it can read. When you send a message, it goes over an encrypted connection " +
    "(TLS) to the provider that runs the model you picked, together with the earlier messages and documents " +
    "of the chat that your browser sends with it. Each model's provider and what it keeps:",
  /** When the operator has not stated the provider's retention (LLM_<TIER>_RETENTION unset). */
  retentionUnknown: "Not stated by this server's operator: see the provider's own terms.",
  caption: "Model providers and what they keep",
} as const;

/**
 * Shown in "What our servers see" when some model is served confidentially (docs/issues.md #20): true of the
 * relay (lib/server/confidential/relay.ts forwards ciphertext and reads only headers, sizes and timing).
 */
export const confidentialServerNote =
  "A model marked Confidential is different: your browser checks the enclave's attestation, then encrypts " +
  "the message, the earlier messages and any document text to that enclave. Our servers pass on only " +
  "ciphertext they cannot read, and see its size and timing.";

export const privacySections: readonly PrivacySection[] = [
  {
    id: "server",
    title: "What our servers see",
    paragraphs: [
      "For a model marked Standard, each message passes through Hush's servers in memory on its way to the model, and the answer comes " +
        "back the same way. Our servers never store that text and never write it to a log or an error report.",
      "A PDF you attach is read in your browser to extract its text, which goes to the model with your message; the file itself is never uploaded. " +
        "The file itself is never stored. Your browser keeps the extracted text for the rest of the " +
        "conversation so that follow-up questions can still refer to it.",
      "If the operator has set up a model that reads images, an image you attach to it is scaled down and re-encoded in your browser " +
        "first, which removes its metadata (camera, location, time); only that copy is sent, with your message and in the same way: " +
        "through our servers in memory for a Standard model, encrypted to the enclave for a Confidential one. Other models refuse images.",
      "Web search is off until you turn on \"Search the web\" for a chat. Then your message is sent as a search query: for a Standard model " +
        "by our servers to the SearXNG search service this server's operator runs, which asks public search engines in its own name (they " +
        "see the query, not your address); for a Confidential model by the enclave itself, so our servers see only that a search was asked " +
        "for, never the query or the results. Under the answer you see every query exactly as it was sent and who ran it. Our servers never " +
        "log or store queries or results; a saved chat keeps them encrypted with the answer.",
      "With \"Search the web\" on, the model may also read a page of its search results or a link in your message. For a Standard model " +
        "our servers fetch the page (the site sees our servers' address, not yours, and no cookie or referrer) and pass its text to the model; " +
        "for a Confidential model the enclave fetches it, and our servers never see which page or its text. Under the answer you see " +
        "\"Read:\" with each page read. Our servers never log or store the pages or their addresses; a saved chat keeps them encrypted with the answer.",
    ],
  },
  {
    id: "stored",
    title: "What we store",
    paragraphs: [
      "Chats without an account are never stored: once the answer is sent, nothing of the conversation " +
        "remains on our side. Your browser holds the chat and its documents while the page is open, and keeps a " +
        "copy (with what you were typing) in this tab's session storage, so that a visit to Pricing or Sign Up, " +
        "Back, or a reload loses nothing. It never leaves your browser; the browser deletes it when you close the " +
        "tab, and after you sign in in that tab we ask whether to keep it as a saved chat or discard it.",
      "Saving history is off until you turn it on. Saved chats (their titles, messages, document text and images) " +
        "are encrypted in your browser with a key only you hold, unlocked with your passkey, passphrase or " +
        "recovery code. Our servers store only the encrypted form and cannot decrypt it. If you lose every " +
        "way to unlock it, nobody, including us, can recover that history.",
      "For your account we store your e-mail address, your plan and subscription status, and a count of " +
        "messages and web searches per day for the daily limits. A visitor's count is kept under a keyed hash of the network " +
        "address whose key changes every day, never under the address itself.",
    ],
  },
  {
    id: "browser",
    title: "What runs in your browser",
    paragraphs: [
      "Only Hush's own code, served from Hush's own server: no analytics, no advertising, no third-party " +
        "scripts or fonts. An automated test opens every public page and fails if it requests anything from " +
        "another site or sets a cookie.",
      "When you are signed in, what you are typing in a chat is kept as a draft in this browser's local " +
        "storage, encrypted with your vault key like your saved chats, so a reload or a failed send loses " +
        "nothing; it is removed once sent. Without an unlocked vault the draft stays only in the open page's memory.",
    ],
  },
  {
    id: "training",
    title: "Training and sharing",
    paragraphs: [
      "Hush never uses what you type or upload to train or tune a model, and never sells or shares your " +
        "conversations. The only other party that sees a message is the model provider named above, which " +
        "processes it to write the answer.",
    ],
  },
];
