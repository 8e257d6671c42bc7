import type { ApiMessage } from "@/lib/chat/client";

/** A message as the page shows it: the API's role and content plus client-only display details. */
export interface UiMessage extends ApiMessage {
  /** Name of the PDF sent with this user message. */
  attachmentName?: string;
  /** Shown under the message, e.g. when only part of the PDF was read. */
  notice?: string | null;
}

/** A model option as the page needs it (spec §3 Model option). */
export interface ModelChoice {
  code: string;
  title: string;
  description: string;
  plan: "Free" | "Pro";
}
