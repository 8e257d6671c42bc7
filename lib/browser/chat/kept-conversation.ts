import { deserialize, emptyTree, serialize, type BranchTree } from "./branches";
import type { ConversationDocument, StagedFile } from "./send-turn";

// A visitor's conversation kept in this tab's sessionStorage only, so /pricing and /signup lose nothing (docs/product.md §4).
const KEPT_CONVERSATION_KEY = "hush.visitor-conversation.v1";

export interface KeptConversation<M> {
  tree: BranchTree<M>;
  documents: ConversationDocument[];
  input: string;
  staged: StagedFile | null;
  model: string;
}

export function keptMessageCount<M>(kept: KeptConversation<M>): number {
  return Object.values(kept.tree.nodes).filter((n) => n.message !== null).length;
}

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

export function writeKeptConversation<M>(kept: KeptConversation<M>): void {
  const store = storage();
  if (!store) return;
  try {
    if (isEmptyConversation(kept)) store.removeItem(KEPT_CONVERSATION_KEY);
    else store.setItem(KEPT_CONVERSATION_KEY, JSON.stringify({ ...kept, tree: serialize(kept.tree) }));
  } catch {
  }
}

export function forgetKeptConversation(): void {
  try {
    storage()?.removeItem(KEPT_CONVERSATION_KEY);
  } catch {
  }
}
