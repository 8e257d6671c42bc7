import type { BranchTree } from "@/lib/browser/chat/branches";
import type { UiMessage } from "./types";

/** The note's text and its longer description (tooltip and screen readers). */
export const MEMORY_USED_TEXT = "Memory used";
export const MEMORY_USED_TITLE = "Your saved memories went with this message to the model.";

/** Flags the newest answer under `userId` as `memoryUsed` when the turn carried a memory (docs/issues.md #41). */
export function markMemoryUsed<T extends { tree: BranchTree<UiMessage> }>(answered: T, userId: string, memories: readonly string[] | undefined): T {
  if (!memories?.length) return answered;
  const children = answered.tree.nodes[userId]?.children ?? [];
  const answerId = children[children.length - 1];
  const answer = answerId ? answered.tree.nodes[answerId] : undefined;
  if (!answer?.message || answer.message.role !== "assistant") return answered;
  const message: UiMessage = { ...answer.message, memoryUsed: true };
  return { ...answered, tree: { ...answered.tree, nodes: { ...answered.tree.nodes, [answer.id]: { ...answer, message } } } };
}
