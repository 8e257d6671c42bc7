/**
 * A conversation as an immutable tree of versions under a virtual root (ROOT): each node remembers its active
 * child, and the conversation shown is the active path. Every function returns a new tree, so a failed send can
 * restore the one it started from.
 */

export const ROOT = "root";

export interface BranchNode<M> {
  id: string;
  parent: string | null;
  message: M | null;
  children: string[];
  active: number;
}

export interface BranchTree<M> {
  nodes: Record<string, BranchNode<M>>;
  next: number;
}

export function emptyTree<M>(): BranchTree<M> {
  return { nodes: { [ROOT]: { id: ROOT, parent: null, message: null, children: [], active: 0 } }, next: 1 };
}

export function fromMessages<M>(messages: M[]): BranchTree<M> {
  // Built in one pass, not through addChild, which copies the map each time.
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

function activeIds<M>(tree: BranchTree<M>): string[] {
  const ids: string[] = [];
  let current = node(tree, ROOT);
  while (current.children.length > 0) {
    const id = current.children[Math.min(current.active, current.children.length - 1)]!;
    ids.push(id);
    current = node(tree, id);
  }
  return ids;
}

export function activePath<M>(tree: BranchTree<M>): { id: string; message: M }[] {
  return activeIds(tree).map((id) => ({ id, message: node(tree, id).message as M }));
}

export function pathTo<M>(tree: BranchTree<M>, id: string): M[] {
  const out: M[] = [];
  for (let current = node(tree, id); current.parent !== null; current = node(tree, current.parent)) {
    out.push(current.message as M);
  }
  return out.reverse();
}

/** Add `message` as the newest, active child of `parentId`. @throws Error when `parentId` is not in the tree */
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

export function addSibling<M>(tree: BranchTree<M>, id: string, message: M): { tree: BranchTree<M>; id: string } {
  const parent = node(tree, id).parent;
  if (parent === null) throw new Error("The root has no siblings");
  return addChild(tree, parent, message);
}

export function updateMessage<M>(tree: BranchTree<M>, id: string, message: M): BranchTree<M> {
  const current = node(tree, id);
  if (current.parent === null) throw new Error("The root holds no message");
  return { ...tree, nodes: { ...tree.nodes, [id]: { ...current, message } } };
}

export function versionOf<M>(tree: BranchTree<M>, id: string): { index: number; count: number } {
  const current = node(tree, id);
  if (current.parent === null) return { index: 1, count: 1 };
  const siblings = node(tree, current.parent).children;
  return { index: siblings.indexOf(id) + 1, count: siblings.length };
}

/** Show the version `step` places away from `id` among its siblings, clamped. */
export function switchVersion<M>(tree: BranchTree<M>, id: string, step: number): BranchTree<M> {
  const current = node(tree, id);
  if (current.parent === null) return tree;
  const parent = node(tree, current.parent);
  const at = parent.children.indexOf(id);
  const active = Math.max(0, Math.min(parent.children.length - 1, at + step));
  if (active === parent.active) return tree;
  return { ...tree, nodes: { ...tree.nodes, [parent.id]: { ...parent, active } } };
}

export function leafId<M>(tree: BranchTree<M>): string {
  const ids = activeIds(tree);
  return ids.at(-1) ?? ROOT;
}

export function serialize<M>(tree: BranchTree<M>): string {
  return JSON.stringify(tree);
}

/** Read a tree written by `serialize`. @throws Error when the text is not a tree */
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
