import { activePath, ROOT, versionOf, type BranchTree } from "./branches";
import { hasVersions, treeFromSaved, type SavedMessage } from "./saved-tree";

// Export of decrypted saved chats as Markdown and JSON (`format: "hush-chats"`, docs/export.md). Pure formatting.

export const EXPORT_FORMAT = "hush-chats";
const EXPORT_VERSION = 1;

export interface ExportableChat {
  id: string;
  title: string | null;
  createdAt: string | null;
  updatedAt: string;
  messages: { role: SavedMessage["role"]; content: string; attachmentName?: string | null }[];
  tree: BranchTree<SavedMessage> | null;
}

export interface ExportJsonMessage {
  role: SavedMessage["role"];
  content: string;
  attachment: { name: string } | null;
}

export interface ExportJsonChat {
  id: string;
  title: string | null;
  created_at: string | null;
  updated_at: string;
  messages: ExportJsonMessage[];
  tree: {
    root: string;
    nodes: Record<string, { parent: string | null; children: string[]; active: number; message: (ExportJsonMessage & { stopped: boolean }) | null }>;
  } | null;
}

export interface ExportJson {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  chats: ExportJsonChat[];
  memories?: ExportJsonMemory[];
}

export interface ExportJsonMemory {
  text: string;
  updated_at: string;
}

export interface ExportableMemory {
  text: string;
  at: number;
}

const newestFirst = (memories: ExportableMemory[]) => [...memories].sort((a, b) => b.at - a.at);

const UNTITLED = "Untitled Chat";

function attachment(name: string | null | undefined) {
  return name ? { name } : null;
}

function chatToJson(chat: ExportableChat): ExportJsonChat {
  return {
    id: chat.id,
    title: chat.title,
    created_at: chat.createdAt,
    updated_at: chat.updatedAt,
    messages: chat.messages.map((m) => ({ role: m.role, content: m.content, attachment: attachment(m.attachmentName) })),
    tree: chat.tree && {
      root: ROOT,
      nodes: Object.fromEntries(
        Object.values(chat.tree.nodes).map((n) => [
          n.id,
          {
            parent: n.parent,
            children: [...n.children],
            active: n.active,
            message: n.message && {
              role: n.message.role,
              content: n.message.content,
              attachment: attachment(n.message.attachmentName),
              stopped: n.message.stopped === true,
            },
          },
        ]),
      ),
    },
  };
}

/** The JSON file's text for `chats`; `memories` only with the export of every chat. */
export function chatsToJson(chats: ExportableChat[], now: Date, memories?: ExportableMemory[]): string {
  const doc: ExportJson = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: now.toISOString(), chats: chats.map(chatToJson) };
  if (memories) doc.memories = newestFirst(memories).map((m) => ({ text: m.text, updated_at: new Date(m.at).toISOString() }));
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const SPEAKER: Record<SavedMessage["role"], string> = { user: "You", assistant: "Hush", system: "System" };

function formatUtc(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function chatToMarkdown(chat: ExportableChat): string {
  const lines: string[] = [`# ${(chat.title ?? UNTITLED).replace(/\s+/g, " ").trim() || UNTITLED}`, ""];
  const dates = [chat.createdAt ? `Created ${formatUtc(chat.createdAt)}` : null, `Last updated ${formatUtc(chat.updatedAt)}`].filter(Boolean);
  lines.push(`_${dates.join(" · ")}_`, "");
  // With versions, label each message of the active path that has siblings ("version 2 of 2").
  const versions = chat.tree ? activePath(chat.tree).filter((n) => n.message.role !== "system" && n.message.content !== "").map((n) => versionOf(chat.tree!, n.id)) : [];
  if (chat.tree) lines.push("_This chat has other versions of some messages; this file shows the ones last selected. The JSON export holds every version._", "");
  chat.messages.forEach((m, i) => {
    const v = versions[i];
    const label = v && v.count > 1 ? ` (version ${v.index} of ${v.count})` : "";
    lines.push(`## ${SPEAKER[m.role]}${label}`, "");
    if (m.attachmentName) lines.push(`_Attachment: ${m.attachmentName}_`, "");
    lines.push(m.content.trimEnd(), "");
  });
  return `${lines.join("\n").trimEnd()}\n`;
}

export function chatsToMarkdown(chats: ExportableChat[], now: Date, memories?: ExportableMemory[]): string {
  const head = `_Exported from Hush on ${formatUtc(now.toISOString())}: ${chats.length} ${chats.length === 1 ? "chat" : "chats"}._\n`;
  const remembered = memories?.length ? [`# Memories\n\n${newestFirst(memories).map((m) => `- ${m.text.replace(/\s+/g, " ").trim()}`).join("\n")}\n`] : [];
  return [head, ...remembered, ...chats.map(chatToMarkdown)].join("\n---\n\n");
}

export function exportFileName(title: string | null | "all", ext: "md" | "json", now: Date): string {
  const date = now.toISOString().slice(0, 10);
  if (title === "all") return `hush-chats-${date}.${ext}`;
  const slug = (title ?? "untitled-chat")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/g, "");
  return `hush-${slug || "chat"}-${date}.${ext}`;
}

export function exportableFromSaved(saved: {
  chatId: string;
  title: string | null;
  tree: string | null;
  createdAt: string | null;
  lastUpdated: string;
  messages: { role: SavedMessage["role"]; content: string; attachment?: { name: string } | null }[];
}): ExportableChat {
  const messages = saved.messages.map((m) => ({ role: m.role, content: m.content, attachmentName: m.attachment?.name ?? null }));
  const tree = saved.tree === null ? null : treeFromSaved(saved.tree, messages.map((m) => ({ role: m.role, content: m.content, ...(m.attachmentName ? { attachmentName: m.attachmentName } : {}) })));
  return {
    id: saved.chatId,
    title: saved.title,
    createdAt: saved.createdAt,
    updatedAt: saved.lastUpdated,
    messages,
    tree: tree && hasVersions(tree) ? tree : null,
  };
}
