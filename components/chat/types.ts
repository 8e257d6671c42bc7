import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { ToolStep } from "@/lib/shared/chat/steps";
import type { ApiMessage, StagedFile } from "@/lib/browser/chat/send-turn";

/** A message as the page shows it. */
export interface UiMessage extends ApiMessage {
  attachmentName?: string;
  notice?: string | null;
  /** Kept in memory only, so regenerate and Retry can send it again. */
  file?: StagedFile | null;
  stopped?: boolean;
  search?: WebSearchRecord;
  tools?: ToolStep[];
  knowledge?: KnowledgeSource[];
  /** The turn carried saved memories (docs/issues.md #41). */
  memoryUsed?: boolean;
}

/** A project file's passage sent with a turn: the file and where in it. */
export interface KnowledgeSource {
  file: string;
  section: string;
}
