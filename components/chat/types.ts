import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { ToolStep } from "@/lib/shared/chat/steps";
import type { ApiMessage, StagedFile } from "@/lib/browser/chat/send-turn";

/** A message as the page shows it: the API's role and content plus client-only display details. */
export interface UiMessage extends ApiMessage {
  /** Name of the PDF sent with this user message. */
  attachmentName?: string;
  /** Shown under the message, e.g. when only part of the PDF was read. */
  notice?: string | null;
  /** The PDF's text sent with this user message, kept in memory only so regenerate and Retry can send it again. */
  file?: StagedFile | null;
  /** An answer the user stopped; its content may be "" (stopped before the first words). */
  stopped?: boolean;
  /** An answer's web search: shown as its Sources and disclosure, sealed with a saved chat. */
  search?: WebSearchRecord;
  /** An answer's device-tool steps (docs/issues.md #50): shown as collapsible steps, sealed with a saved chat. */
  tools?: ToolStep[];
  /** docs/issues.md #41: the project files' passages this answer was given, shown as its Sources. */
  knowledge?: KnowledgeSource[];
  /** docs/issues.md #41: the turn of this answer carried saved memories to the model (a quiet note under it). */
  memoryUsed?: boolean;
}

/** A project file's passage sent with a turn: the file's name and where in it ("part 3", "section “Pricing”"). */
export interface KnowledgeSource {
  file: string;
  section: string;
}


/** The unlocked vault: the key and the user id bound into each ciphertext (lib/browser/vault/seal.ts). */
export interface VaultKey {
  key: CryptoKey;
  userId: string;
}
