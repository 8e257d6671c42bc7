/**
 * A conversation as a small tree of versions (regenerate keeps earlier answers,
 * edit-and-resend keeps the old branch, both switchable "2 / 2"). Pure and immutable: every function
 * returns a new tree and leaves its input alone, so React state can hold it and a failed send can
 * restore the tree it started from.
 *
 * Shape: a virtual root (id ROOT, no message) whose descendants are messages. Each node remembers which
 * of its children is active; the conversation shown and sent to the API is the active path from the root
 * down to a leaf. Siblings are the versions of one position (several answers to one question, or an
 * edited question next to the original).
 *
 * Storage: saved chats store the active path as messages and, when there are versions, the whole tree
 * in `serialize`'s wire form sealed under the vault key (lib/browser/chat/saved-tree.ts).
 */

export const ROOT = "root";

export interface BranchNode<M> {
  id: string;
  parent: string | null;
  /** null only for the root. */
  message: M | null;
  children: string[];
  /** Index into `children` of the version shown; meaningless when there are no children. */
  active: number;
}

export interface BranchTree<M> {
  nodes: Record<string, BranchNode<M>>;
  /** Next id to hand out ("m1", "m2", ...): ids are unique within one tree. */
  next: number;
}

/** A tree with only the root. */
export function emptyTree<M>(): BranchTree<M> {
  return { nodes: { [ROOT]: { id: ROOT, parent: null, message: null, children: [], active: 0 } }, next: 1 };
}

/** A tree holding one linear conversation (e.g. a saved chat as the server returns it). */
export function fromMessages<M>(messages: M[]): BranchTree<M> {
  // Built in one pass (not through addChild): opening a 1,000-message chat must not copy the map 1,000 times.
  const nodes: Record<string, BranchNode<M>> = {};
  let parent: BranchNode<M> = { id: ROOT, parent: null, message: null, children: [], active: 0 };
  nodes[ROOT] = parent;
  messages.forEach((message, i) => {
    const id = `m${i + 1}`;
    parent.children.push(id);
    parent = { id, parent: parent.id, message, children: [], active: 0 };
    nodes[id] = parent;
  });
  return { nodes, next: messages.length + 1 };
}

function node<M>(tree: BranchTree<M>, id: string): BranchNode<M> {
  const found = tree.nodes[id];
  if (!found) throw new Error(`No message ${id} in the conversation tree`);
  return found;
}

/** The ids on the active path, root excluded, from the first message to the leaf. */
export function activeIds<M>(tree: BranchTree<M>): string[] {
  const ids: string[] = [];
  let current = node(tree, ROOT);
  while (current.children.length > 0) {
    const id = current.children[Math.min(current.active, current.children.length - 1)]!;
    ids.push(id);
    current = node(tree, id);
  }
  return ids;
}

/** The active path as `{ id, message }` pairs: what the page shows. */
export function activePath<M>(tree: BranchTree<M>): { id: string; message: M }[] {
  return activeIds(tree).map((id) => ({ id, message: node(tree, id).message as M }));
}

/** The messages from the first one down to and including `id` on its own path (root excluded). */
export function pathTo<M>(tree: BranchTree<M>, id: string): M[] {
  const out: M[] = [];
  for (let current = node(tree, id); current.parent !== null; current = node(tree, current.parent)) {
    out.push(current.message as M);
  }
  return out.reverse();
}

/**
 * Add `message` as the newest child of `parentId` and make it the active version there.
 * @throws Error when `parentId` is not in the tree.
 */
export function addChild<M>(tree: BranchTree<M>, parentId: string, message: M): { tree: BranchTree<M>; id: string } {
  const parent = node(tree, parentId);
  const id = `m${tree.next}`;
  return {
    id,
    tree: {
      next: tree.next + 1,
      nodes: {
        ...tree.nodes,
        [parentId]: { ...parent, children: [...parent.children, id], active: parent.children.length },
        [id]: { id, parent: parentId, message, children: [], active: 0 },
      },
    },
  };
}

/** Add a new version next to `id` (same parent), active. Regenerate and edit-and-resend use this. */
export function addSibling<M>(tree: BranchTree<M>, id: string, message: M): { tree: BranchTree<M>; id: string } {
  const parent = node(tree, id).parent;
  if (parent === null) throw new Error("The root has no siblings");
  return addChild(tree, parent, message);
}

/** Replace a node's message (e.g. with the server's copy after a send), keeping its place and children. */
export function updateMessage<M>(tree: BranchTree<M>, id: string, message: M): BranchTree<M> {
  const current = node(tree, id);
  if (current.parent === null) throw new Error("The root holds no message");
  return { ...tree, nodes: { ...tree.nodes, [id]: { ...current, message } } };
}

/** Which version `id` is among its siblings: 1-based `index` of `count`. */
export function versionOf<M>(tree: BranchTree<M>, id: string): { index: number; count: number } {
  const current = node(tree, id);
  if (current.parent === null) return { index: 1, count: 1 };
  const siblings = node(tree, current.parent).children;
  return { index: siblings.indexOf(id) + 1, count: siblings.length };
}

/**
 * Show the version `step` places away from `id` among its siblings (-1 previous, +1 next), clamped to
 * the first and last. Below it, each node keeps the version that was last active there.
 */
export function switchVersion<M>(tree: BranchTree<M>, id: string, step: number): BranchTree<M> {
  const current = node(tree, id);
  if (current.parent === null) return tree;
  const parent = node(tree, current.parent);
  const at = parent.children.indexOf(id);
  const active = Math.max(0, Math.min(parent.children.length - 1, at + step));
  if (active === parent.active) return tree;
  return { ...tree, nodes: { ...tree.nodes, [parent.id]: { ...parent, active } } };
}

/** The id of the last message on the active path, or ROOT for an empty conversation. */
export function leafId<M>(tree: BranchTree<M>): string {
  const ids = activeIds(tree);
  return ids.at(-1) ?? ROOT;
}

/** The wire form of a whole tree (for the vault: saved branches, encrypted like every message). */
export function serialize<M>(tree: BranchTree<M>): string {
  return JSON.stringify(tree);
}

/**
 * Read a tree written by `serialize`.
 * @throws Error when the text is not a tree (missing root, a child that does not exist).
 */
export function deserialize<M>(text: string): BranchTree<M> {
  const tree = JSON.parse(text) as BranchTree<M>;
  if (!tree || typeof tree !== "object" || !tree.nodes?.[ROOT] || typeof tree.next !== "number") {
    throw new Error("Not a conversation tree");
  }
  for (const n of Object.values(tree.nodes)) {
    for (const child of n.children) if (tree.nodes[child]?.parent !== n.id) throw new Error("Broken conversation tree");
  }
  return tree;
}
