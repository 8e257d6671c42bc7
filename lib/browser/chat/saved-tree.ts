import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { activePath, deserialize, fromMessages, serialize, type BranchTree } from "./branches";

/**
 * Saved chats keep their versions ("Saved chats store branches, encrypted like everything
 * else"). Design, chosen for the least schema churn:
 * - the messages table keeps the active path (positions 0..n-1), as every existing reader expects;
 * - when a chat has versions, its whole branch tree (lib/browser/chat/branches.ts `serialize`, messages
 *   reduced to `SavedMessage`) is sealed in the browser under the vault key (field "tree", bound to user
 *   and chat) and stored in `chats.tree_ciphertext`, replaced with every save; a linear chat stores null;
 * - an edit or regenerate changes the active path at an earlier position: the browser sends the path from
 *   the first changed position with `replace` (POST /api/ns/chat_save), which the server applies in one
 *   transaction.
 * Pure functions, no crypto and no fetch: the caller seals (lib/browser/vault/seal.ts).
 */

/** A message as a saved tree keeps it: no PDF bytes, no transient notice. */
export interface SavedMessage {
  role: "user" | "assistant" | "system";
  content: string;
  attachmentName?: string;
  stopped?: boolean;
  /** An answer's web search, sealed with the tree like the text. */
  search?: WebSearchRecord;
  /** An answer's device-tool steps, sealed with the tree like the text. */
  tools?: ToolStep[];
  /** The user's memories went with this answer's turn ("Memory used"). */
  memoryUsed?: boolean;
}

/** The messages a save stores: the active path without system messages and empty (stopped) stubs. */
export function storedPath<M extends SavedMessage>(tree: BranchTree<M>): { id: string; message: M }[] {
  return activePath(tree).filter((n) => n.message.role !== "system" && n.message.content !== "");
}

/** Whether any message has a sibling version (then the tree is worth storing). */
export function hasVersions<M>(tree: BranchTree<M>): boolean {
  return Object.values(tree.nodes).some((n) => n.children.length > 1);
}

/** The tree's wire form with only what is saved of each message, or null when there are no versions. */
export function treeForSaving<M extends SavedMessage>(tree: BranchTree<M>): string | null {
  if (!hasVersions(tree)) return null;
  const nodes: BranchTree<SavedMessage>["nodes"] = {};
  for (const [id, n] of Object.entries(tree.nodes)) {
    const m = n.message;
    nodes[id] = {
      ...n,
      children: [...n.children],
      message: m && {
        role: m.role,
        content: m.content,
        ...(m.attachmentName ? { attachmentName: m.attachmentName } : {}),
        ...(m.stopped ? { stopped: true } : {}),
        ...(m.search ? { search: m.search } : {}),
        ...(m.tools?.length ? { tools: m.tools } : {}),
        ...(m.memoryUsed ? { memoryUsed: true } : {}),
      },
    };
  }
  return serialize({ nodes, next: tree.next });
}

/**
 * The tree to show for a saved chat: the stored tree when its active path is exactly the stored messages
 * (role and text), else the messages as one linear conversation (no tree, or a tree left behind by a
 * client that appended without one: the messages are the truth).
 */
export function treeFromSaved(tree: string | null, messages: SavedMessage[]): BranchTree<SavedMessage> {
  if (tree !== null) {
    try {
      const parsed = deserialize<SavedMessage>(tree);
      const path = storedPath(parsed);
      if (
        path.length === messages.length &&
        path.every((n, i) => n.message.role === messages[i]!.role && n.message.content === messages[i]!.content)
      ) {
        return parsed;
      }
    } catch {
      // A damaged tree falls back to the stored active path below.
    }
  }
  return fromMessages(messages);
}

/**
 * What to send to store `path` when `savedIds` (the tree ids of the stored messages, in order) are on
 * the server: the first position where they differ, the messages from there, and whether stored
 * messages are replaced. `null` when nothing changed.
 */
export function planSave<M>(savedIds: readonly string[], path: readonly { id: string; message: M }[]) {
  let from = 0;
  while (from < savedIds.length && from < path.length && savedIds[from] === path[from]!.id) from++;
  // Nothing new on the path (the stored path equals it, or is longer only because of a shorter version).
  if (from === path.length) return null;
  return { from, replace: from < savedIds.length, messages: path.slice(from).map((n) => n.message) };
}
