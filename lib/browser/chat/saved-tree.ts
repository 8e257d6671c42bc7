import type { WebSearchRecord } from "@/lib/shared/search/record";
import type { ToolStep } from "@/lib/shared/chat/steps";
import { activePath, deserialize, fromMessages, serialize, type BranchTree } from "./branches";

// Saved chats keep the active path as messages; a chat with versions also stores its whole branch tree, sealed as
// field "tree". An edit or regenerate sends the path from the first changed position with `replace`. Pure.

export interface SavedMessage {
  role: "user" | "assistant" | "system";
  content: string;
  attachmentName?: string;
  stopped?: boolean;
  search?: WebSearchRecord;
  tools?: ToolStep[];
  memoryUsed?: boolean;
}

export function storedPath<M extends SavedMessage>(tree: BranchTree<M>): { id: string; message: M }[] {
  return activePath(tree).filter((n) => n.message.role !== "system" && n.message.content !== "");
}

export function hasVersions<M>(tree: BranchTree<M>): boolean {
  return Object.values(tree.nodes).some((n) => n.children.length > 1);
}

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

/** The stored tree when its active path is exactly the stored messages, else the messages as one linear conversation. */
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

/** What to send to store `path` over `savedIds`: the first differing position, the messages from there, and `replace`. */
export function planSave<M>(savedIds: readonly string[], path: readonly { id: string; message: M }[]) {
  let from = 0;
  while (from < savedIds.length && from < path.length && savedIds[from] === path[from]!.id) from++;
  if (from === path.length) return null;
  return { from, replace: from < savedIds.length, messages: path.slice(from).map((n) => n.message) };
}
