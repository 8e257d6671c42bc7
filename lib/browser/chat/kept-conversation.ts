import { deserialize, emptyTree, serialize, type BranchTree } from "./branches";
import type { ConversationDocument, StagedFile } from "./send-turn";

/**
 * A visitor's conversation kept for the life of this browser tab (docs/issues.md #23 "Nothing a user typed is
 * lost"): the spec sends a visitor who picks the Pro model to /pricing (docs/product.md §4) and one at the daily
 * limit to /signup (§8); Back, "Try Free" or signing up in the same tab brings it back.
 *
 * Where: this tab's sessionStorage only (never localStorage, never the server). The browser drops it when
 * the tab is closed; /privacy says so. Signed-in users' chats are never written here (their drafts are
 * sealed with the vault key: lib/browser/chat/drafts.ts).
 */
export const KEPT_CONVERSATION_KEY = "hush.visitor-conversation.v1";

/** What is kept: the conversation with its versions, its documents, the unsent text and PDF, the model. */
export interface KeptConversation<M> {
  tree: BranchTree<M>;
  documents: ConversationDocument[];
  input: string;
  staged: StagedFile | null;
  model: string;
}

/** The number of messages in a kept conversation (the root has none). */
export function keptMessageCount<M>(kept: KeptConversation<M>): number {
  return Object.values(kept.tree.nodes).filter((n) => n.message !== null).length;
}

/** True when there is nothing worth keeping: no message, no typed text, no PDF. */
export function isEmptyConversation<M>(kept: KeptConversation<M>): boolean {
  return keptMessageCount(kept) === 0 && kept.input.trim() === "" && kept.staged === null;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    // Storage blocked (some private modes): nothing is kept beyond this page.
    return null;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";
const isDocument = (v: unknown): v is ConversationDocument =>
  typeof v === "object" && v !== null && isString((v as ConversationDocument).name) && isString((v as ConversationDocument).text);
const isStaged = (v: unknown): v is StagedFile =>
  isDocument(v) && typeof (v as StagedFile).truncated === "boolean" && ((v as StagedFile).notice === null || isString((v as StagedFile).notice));

/**
 * This tab's kept visitor conversation, or null (none, unreadable, or written by another version).
 * Never throws: a damaged entry is dropped.
 */
export function readKeptConversation<M>(): KeptConversation<M> | null {
  const store = storage();
  const text = store?.getItem(KEPT_CONVERSATION_KEY);
  if (!store || !text) return null;
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    const documents = Array.isArray(raw.documents) ? raw.documents.filter(isDocument) : [];
    const kept: KeptConversation<M> = {
      tree: isString(raw.tree) ? deserialize<M>(raw.tree) : emptyTree<M>(),
      documents,
      input: isString(raw.input) ? raw.input : "",
      staged: isStaged(raw.staged) ? raw.staged : null,
      model: isString(raw.model) ? raw.model : "",
    };
    return isEmptyConversation(kept) ? null : kept;
  } catch {
    store.removeItem(KEPT_CONVERSATION_KEY);
    return null;
  }
}

/** Keep (or, when empty, forget) the visitor's conversation in this tab. Quota errors are ignored. */
export function writeKeptConversation<M>(kept: KeptConversation<M>): void {
  const store = storage();
  if (!store) return;
  try {
    if (isEmptyConversation(kept)) store.removeItem(KEPT_CONVERSATION_KEY);
    else store.setItem(KEPT_CONVERSATION_KEY, JSON.stringify({ ...kept, tree: serialize(kept.tree) }));
  } catch {
    // Over the tab's storage quota (large PDFs): the conversation stays on screen, just not kept.
  }
}

/** Forget the kept conversation (kept as a saved chat, or declined, after signing in). */
export function forgetKeptConversation(): void {
  try {
    storage()?.removeItem(KEPT_CONVERSATION_KEY);
  } catch {
    // nothing kept
  }
}
